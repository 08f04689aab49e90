#include "server.hpp"

#include <iostream>

#include "error_answer.hpp"
#include "methods.hpp"

namespace ssp::driver {
namespace {

thread_local const Call* t_current_call = nullptr;

// hello (docs/driver-protocol.md): the reference implements everything.
// An older version's hello is answered too, without the capabilities that
// version lacks, so an older harness can still drive this driver.
Json hello(const DriverSwitches& switches, const Fields& params) {
  const std::int64_t requested = params.integer("protocol");
  if (requested < wire::kOldestProtocolVersion || requested > wire::kProtocolVersion) {
    throw Unsupported("protocol version " + std::to_string(requested) +
                      " is not spoken here (only " + std::to_string(wire::kOldestProtocolVersion) +
                      " to " + std::to_string(wire::kProtocolVersion) + ")");
  }
  const bool pushes = requested >= 2;
  const bool storage_reads = requested >= 3;
  return Json{
      {"protocol", requested},
      {"implementation", {{"name", "ssp-reference"}, {"version", SSP_DRIVER_VERSION}}},
      {"capabilities",
       {{"backends", {"memory", "sqlite", "postgres"}},
        {"areas",
         {"segments", "storage", "scope", "rows", "schema", "download", "signed_url",
          "error_catalog"}},
        {"hooks", switches.hooks},
        {"hasher", true},
        {"readOnly", true},
        {"push", pushes},
        {"transactions", pushes},
        {"pushHooks", pushes && switches.hooks},
        {"commands", pushes && switches.commands},
        {"commandCallbacks", pushes && switches.commands},
        {"ensuredSchema", pushes},
        {"queryAuthoritative", pushes},
        {"upstreamTables", pushes},
        {"tableWindow", storage_reads},
        {"partitionRegistry", storage_reads}}}};
}

}  // namespace

MethodTable all_methods(const DriverSwitches& switches) {
  MethodTable table;
  table["hello"] = [switches](const Fields& params) { return hello(switches, params); };
  add_segment_methods(table);
  add_storage_methods(table);
  add_push_methods(table);
  add_command_methods(table);
  add_transaction_methods(table);
  add_scope_methods(table);
  add_row_methods(table);
  add_schema_methods(table);
  add_download_methods(table);
  add_signed_url_methods(table);
  add_error_catalog_methods(table);
  if (!switches.hooks) refuse_hook_requests(table);
  return table;
}

const Call& current_call() {
  if (t_current_call == nullptr) throw std::logic_error("no call is being served on this thread");
  return *t_current_call;
}

CallScope::CallScope(const Call& call) : previous_(t_current_call) { t_current_call = &call; }
CallScope::~CallScope() { t_current_call = previous_; }

void throw_unknown_handle(std::int64_t handle) {
  // A handle the harness never got (or closed): its bug, not a refusal.
  throw wire::WireError("no open object has handle " + std::to_string(handle));
}

int serve(Connection& connection, const MethodTable& methods) {
  connection.run([&](const Json& request) {
    const Call call{request.at("id"), connection};
    const CallScope scope(call);
    Json answer{{"id", call.id}};
    try {
      const Json& method = request.at("method");
      const auto found = method.is_string() ? methods.find(method.get<std::string>())
                                            : methods.end();
      if (found == methods.end()) throw Unsupported("no method " + method.dump());
      const Json params = request.contains("params") ? request.at("params") : Json::object();
      answer["result"] = found->second(Fields(params, "params"));
    } catch (...) {
      answer["error"] = error_answer(std::current_exception());
    }
    try {
      connection.send(answer);
    } catch (const std::exception& error) {
      std::cerr << "ssp-reference-driver: cannot answer: " << error.what() << "\n";
    }
  });
  return 0;
}

int serve_standard_streams(const MethodTable& methods) {
  std::ios::sync_with_stdio(false);
  // cin is tied to cout: every read would flush cout from the reading thread,
  // racing the answering threads' writes (they hold the connection's lock).
  std::cin.tie(nullptr);
  Connection connection(std::cin, std::cout);
  return serve(connection, methods);
}

}  // namespace ssp::driver
