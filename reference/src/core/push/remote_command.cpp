// run_remote_command: push.md §3.1 steps 1–9 over the push pipeline, with the
// command's operations built under the lock (push_pipeline_builder.hpp).
#include "ssp/push/remote_command.hpp"

#include "push_authorization.hpp"
#include "push_pipeline_builder.hpp"
#include "ssp/encoding/json_text.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/storage/row_codec.hpp"
#include "ssp/push/push_pipeline.hpp"

namespace ssp::push {
namespace {

constexpr const char* kOperationInvalidRequest = "operation.invalid_request";

// The command's reads: the push transaction's rows the actor may write,
// decoded; anything else reads as absent (push.md §3.1 step 6).
class ScopedCommandReader final : public CommandReader {
 public:
  ScopedCommandReader(storage::PushTransaction& tx, const storage::CompiledSchema& schema,
                      const ScopeMap& allowed)
      : tx_(tx), schema_(schema), allowed_(allowed) {}

  std::optional<storage::Row> get_row(const std::string& table,
                                      const std::string& row_id) override {
    const storage::CompiledTable* compiled = schema_.find(table);
    if (compiled == nullptr) {
      throw OperationError(kOperationInvalidRequest,
                           "command read of unknown table \"" + table + "\"");
    }
    const auto stored = tx_.get_row(table, row_id);
    if (!stored) return std::nullopt;
    storage::Row row = storage::decode_row(compiled->layout(), stored->payload);
    const auto scopes = extract_scopes(*compiled, row);
    if (!scopes || first_missing_variable(*compiled, *scopes) ||
        !scopes_authorized(*compiled, *scopes, allowed_)) {
      return std::nullopt;
    }
    return row;
  }

 private:
  storage::PushTransaction& tx_;
  const storage::CompiledSchema& schema_;
  const ScopeMap& allowed_;
};

// A mutation as a push operation (push.md §3.1 step 7): full rows only,
// encoded by the row codec, without a base version.
PushOperation operation_of(const storage::CompiledSchema& schema, const CommandMutation& mutation) {
  const storage::CompiledTable* table = schema.find(mutation.table);
  if (table == nullptr) {
    throw OperationError(kOperationInvalidRequest,
                         "command mutation names unknown table \"" + mutation.table + "\"");
  }
  PushOperation operation{mutation.table, mutation.row_id, mutation.op, std::nullopt, std::nullopt};
  if (mutation.op == OperationKind::remove) {
    if (mutation.row_id.empty()) {
      throw OperationError(kOperationInvalidRequest,
                           "command delete of table \"" + mutation.table + "\" has an empty rowId");
    }
    return operation;
  }
  const auto& columns = table->columns();
  if (!mutation.row || mutation.row->size() != columns.size()) {
    throw OperationError(kOperationInvalidRequest, "command upsert of table \"" + mutation.table +
                                                       "\" must supply every column");
  }
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name != table->declared.primary_key) continue;
    const auto* key = std::get_if<std::string>(&(*mutation.row)[i]);
    if (key == nullptr || key->empty()) {
      throw OperationError(kOperationInvalidRequest, "command upsert of table \"" + mutation.table +
                                                         "\" needs a non-empty string primary key");
    }
    operation.row_id = *key;
  }
  try {
    operation.payload = storage::encode_row(table->layout(), *mutation.row);
  } catch (const SspError& bad_value) {
    throw OperationError(kOperationInvalidRequest,
                         "command upsert of table \"" + mutation.table + "\": " + bad_value.what());
  }
  return operation;
}

// The registered code's own failures are not carried: only OperationError,
// the push's own request refusals and a storage failure (of a read) keep
// their kind.
template <typename Call>
auto registered_code(Call call) -> decltype(call()) {
  try {
    return call();
  } catch (const OperationError&) {
    throw;
  } catch (const PushRequestError&) {
    throw;
  } catch (const StorageError&) {
    throw;
  } catch (const std::exception&) {
    throw OperationError("operation.execution_failed", "registered remote operation failed");
  }
}

}  // namespace

std::pair<std::string, std::string> command_idempotency_key(const std::string& actor_id,
                                                            const CommandRequest& request) {
  std::string client_id = "[\"remote-command\",";
  append_json_string(client_id, actor_id);
  client_id += ',';
  append_json_string(client_id, request.client_id);
  client_id += ']';
  std::string commit_id = "[";
  append_json_string(commit_id, request.operation_id);
  commit_id += ',';
  append_json_string(commit_id, request.request_id);
  commit_id += ']';
  return {client_id, commit_id};
}

PushAnswer run_remote_command(storage::ServerStorage& storage,
                              const storage::CompiledSchema& schema, const PushActor& actor,
                              const CommandRegistry& registry, const CommandRequest& request,
                              const PushOptions& options) {
  if (request.operation_id.empty() || request.client_id.empty() || request.request_id.empty()) {
    throw OperationError(kOperationInvalidRequest,
                         "a command needs a non-empty operationId, clientId and requestId");
  }
  check_client_id_not_reserved(request.client_id);
  const auto registered = registry.find(request.operation_id);
  if (registered == registry.end() || !registered->second.run) {
    throw OperationError("operation.unknown",
                         "no command is registered as \"" + request.operation_id + "\"");
  }
  const RemoteCommand& command = registered->second;
  const CommandContext context{actor.actor_id, actor.partition, request.client_id,
                               request.operation_id, request.request_id};
  // Before any idempotency lookup, on every delivery (push.md §3.1 step 3, Q8).
  const bool authorized =
      registered_code([&] { return !command.authorize || command.authorize(context); });
  if (!authorized) throw OperationError("operation.forbidden", "the command is not authorized");
  // A resolver that threw is a failure of the host's code, as a throwing run
  // is (upstream's operations.ts lets it reach the same catch).
  if (!actor.allowed_scopes) {
    throw OperationError("operation.execution_failed", "registered remote operation failed");
  }
  const auto [client_id, commit_id] = command_idempotency_key(actor.actor_id, request);
  const PushCommit commit{client_id, commit_id, {}};
  return run_push_building(
      storage, schema, actor, commit, options, [&](storage::PushTransaction& tx) {
        ScopedCommandReader reader(tx, schema, *actor.allowed_scopes);
        const auto mutations = registered_code([&] { return command.run(context, reader); });
        if (mutations.empty()) {
          throw OperationError(kOperationInvalidRequest,
                               "authoritative command produced no mutations");
        }
        std::vector<PushOperation> operations;
        for (const auto& mutation : mutations) operations.push_back(operation_of(schema, mutation));
        return operations;
      });
}

}  // namespace ssp::push
