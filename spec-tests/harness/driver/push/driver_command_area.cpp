// CommandArea over a driver's command.run (docs/driver-protocol.md,
// "command.run"): the declared command travels as data; the validators, the
// notifier and the hook points come back as callbacks, as they do for
// push.run.
#include "harness/driver/driver_areas.hpp"
#include "harness/driver/driver_server_storage.hpp"
#include "harness/driver/push/push_callbacks.hpp"
#include "harness/driver/push/push_hook_trail.hpp"
#include "harness/driver/push/push_schema_param.hpp"
#include "harness/errors/driver_error.hpp"
#include "harness/errors/harness_error.hpp"
#include "wire/push_values.hpp"
#include "wire/wire_values.hpp"

namespace ssp::harness {
namespace {

using wire::Json;

constexpr std::string_view kCommandRun = "command.run";

class DriverCommandArea final : public CommandArea {
 public:
  DriverCommandArea(bool hooks_advertised, bool callbacks_advertised, bool ensured_schema)
      : hooks_advertised_(hooks_advertised),
        callbacks_advertised_(callbacks_advertised),
        ensured_schema_(ensured_schema) {}

  push::PushAnswer command(storage::ServerStorage& storage, const storage::CompiledSchema& schema,
                           const push::PushActor& actor, const push::CommandRequest& request,
                           const std::optional<wire::DeclaredCommand>& declared, bool authorized,
                           const push::PushOptions& options) override {
    const std::string method(kCommandRun);
    DriverHandle* handle = driver_storage_handle(storage);
    if (handle == nullptr) {
      throw HarnessError(method + ": the storage is not one this driver opened");
    }
    if ((!options.row_validators.empty() || options.commit_validator || options.notify) &&
        !callbacks_advertised_) {
      throw HarnessError(method + ": a validator or notifier was installed, but the driver's "
                                  "hello does not advertise commandCallbacks, and the test did "
                                  "not skip at its capability gate");
    }
    if (options.hook && !hooks_advertised_) {
      throw HarnessError(method + ": a hook was installed, but the driver's hello does not "
                                  "advertise pushHooks, and the test did not skip at its gate");
    }
    if (!options.clock) throw InvalidArgument("PushOptions::clock is required");
    // A driver of an earlier revision is sent what it was sent then: the hooks.
    Json callbacks = push_callbacks_to_json(options);
    if (!callbacks_advertised_) callbacks = Json{{"hooks", callbacks.at("hooks")}};
    Json params{{"actor", wire::push_actor_to_json(actor)},
                {"request",
                 {{"operationId", request.operation_id},
                  {"clientId", request.client_id},
                  {"requestId", request.request_id}}},
                {"command", declared ? wire::declared_command_to_json(*declared) : Json()},
                {"authorized", authorized},
                {"nowMs", options.clock()},
                {"cacheIdentity",
                 options.new_cache_identity ? Json(options.new_cache_identity()) : Json()},
                {"callbacks", std::move(callbacks)}};
    add_push_schema(params, method, storage, schema, ensured_schema_);
    HookTrail trail(method);
    const auto on_callback = [&](const std::string& name, const wire::Fields& params) -> Json {
      return answer_push_callback(method, name, params, *handle, options, trail);
    };
    const Json result = handle->call_method(method, std::move(params), on_callback);
    const push::PushAnswer answer =
        decode_answer(method, [&] { return wire::push_answer_from_json(result, "result"); });
    if (options.hook) trail.check(answer);
    return answer;
  }

 private:
  const bool hooks_advertised_;
  const bool callbacks_advertised_;
  const bool ensured_schema_;  // the hello's ensuredSchema
};

}  // namespace

std::unique_ptr<CommandArea> make_driver_command_area(const DriverHello& hello) {
  return std::make_unique<DriverCommandArea>(hello.push_hooks, hello.command_callbacks,
                                             hello.ensured_schema);
}

}  // namespace ssp::harness
