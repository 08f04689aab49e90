// command.run (docs/driver-protocol.md, "command.run"): the reference's
// run_remote_command, with the declared command (the protocol's small
// vocabulary) registered under the request's operation id, and the hook
// points, validators and notifier carried as callbacks as push.run carries
// them.
#include "methods.hpp"
#include "ssp/push/remote_command.hpp"
#include "wire/declared_command.hpp"
#include "wire/push_values.hpp"
#include "wire/wire_values.hpp"

namespace ssp::driver {

Json run_command_request(const Fields& params, storage::ServerStorage& storage) {
  const auto schema = push_schema_of(params);
  const push::PushActor actor =
      wire::push_actor_from_json(params.at("actor"), params.path_of("actor"));
  const Fields request_fields = params.object("request");
  const push::CommandRequest request{request_fields.text("operationId"),
                                     request_fields.text("clientId"),
                                     request_fields.text("requestId")};
  push::CommandRegistry registry;
  if (!params.at("command").is_null()) {
    registry[request.operation_id] = wire::reference_command(
        wire::declared_command_from_json(params.at("command"), params.path_of("command")),
        params.boolean("authorized"));
  }
  return wire::push_answer_to_json(push::run_remote_command(
      storage, *schema, actor, registry, request, carried_push_options(params)));
}

namespace {

Json command_run(const Fields& params) {
  return run_command_request(params, *server_storage_of(params));
}

}  // namespace

void add_command_methods(MethodTable& table) { table["command.run"] = command_run; }

}  // namespace ssp::driver
