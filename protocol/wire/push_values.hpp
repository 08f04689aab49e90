// The push shapes of the driver protocol, version 2 (docs/driver-protocol.md,
// "push" and "transactions"): actors, commits, result records, stored
// results, answers, changes, commit entries, and what validators and the
// notifier see. Encoders write what the doc shows; decoders check shapes only
// (a value outside a contract still decodes: refusing it is the candidate's
// job) and name the field path in every WireError.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ssp/push/push_types.hpp"
#include "ssp/storage/commit_log.hpp"
#include "ssp/storage/push_result.hpp"
#include "ssp/storage/push_transaction.hpp"
#include "wire/wire_json.hpp"

namespace ssp::wire {

// H0–H6 by the names of push::push_hook_point_name.
std::optional<push::PushHookPoint> push_hook_point_from_name(std::string_view name);

// {"partition", "actorId", "allowedScopes": scope map | null}.
Json push_actor_to_json(const push::PushActor& actor);
push::PushActor push_actor_from_json(const Json& value, const std::string& path);

// {"clientId", "clientCommitId", "operations": [{"table", "rowId", "op",
// "payload", "baseVersion"}…]}.
Json push_commit_to_json(const push::PushCommit& commit);
push::PushCommit push_commit_from_json(const Json& value, const std::string& path);

// One §6.3 record, with `details` as JSON text.
Json operation_result_to_json(const push::OperationResult& record);
push::OperationResult operation_result_from_json(const Json& value, const std::string& path);

// {"status": "applied" | "rejected", "commitSeq", "recordedAtMs", "cacheIdentity", "results"}.
Json stored_push_result_to_json(const push::StoredPushResult& result);
push::StoredPushResult stored_push_result_from_json(const Json& value, const std::string& path);

// The answer of storage.get_push_result and tx.get_push_result:
// {"result": stored result | null}.
Json stored_result_answer_to_json(const std::optional<push::StoredPushResult>& result);
std::optional<push::StoredPushResult> stored_result_answer_from_json(const Json& value,
                                                                     const std::string& path);

// {"status": "applied" | "cached" | "rejected", "commitSeq", "results", "replayed"}.
Json push_answer_to_json(const push::PushAnswer& answer);
push::PushAnswer push_answer_from_json(const Json& value, const std::string& path);

// {"table", "rowId", "op", "rowVersion", "scopes", "payload"}.
Json change_to_json(const storage::Change& change);
storage::Change change_from_json(const Json& value, const std::string& path);

// {"clientId", "clientCommitId", "actorId", "createdAtMs", "changes"}; a
// commit read back adds "commitSeq".
Json commit_entry_to_json(const storage::CommitEntry& entry);
storage::CommitEntry commit_entry_from_json(const Json& value, const std::string& path);
Json commit_to_json(const storage::Commit& commit);
storage::Commit commit_from_json(const Json& value, const std::string& path);

// A scan of the validator's reader or of tx.scan_rows: the fields "table",
// "scopeFilter", "afterRowId", "limit" (inside a request's params).
Json row_scan_to_json(const storage::RowScan& scan);
storage::RowScan row_scan_from_fields(const Fields& f);

// The params of the validate_row, validate_commit and notify callbacks, minus
// "call". validate_commit's reader is not a value: it travels as the
// push.read_row and push.scan_rows requests.
Json row_validation_to_json(const push::RowValidation& op);
push::RowValidation row_validation_from_json(const Json& value, const std::string& path);
Json commit_validation_to_json(const push::CommitValidation& input);
// The fields of validate_commit but the reader, which the caller supplies.
struct CommitValidationFields {
  std::string client_id;
  std::string client_commit_id;
  std::string actor_id;
  std::string partition;
  std::vector<push::OperationEvidence> operations;
};
CommitValidationFields commit_validation_from_json(const Json& value, const std::string& path);
Json notification_to_json(const push::CommitNotification& notification);
push::CommitNotification notification_from_json(const Json& value, const std::string& path);

// A validator's verdict (docs/driver-protocol.md, "Validator verdicts").
struct ValidatorVerdict {
  enum class Kind { accepted, rejected, threw } kind = Kind::accepted;
  std::optional<std::int64_t> op_index;  // rejected by validate_commit, naming an operation
  std::string code;                      // rejected
  std::string message;                   // rejected; threw: what it threw
  std::optional<std::string> details_json;
};
Json verdict_to_json(const ValidatorVerdict& verdict);
ValidatorVerdict verdict_from_json(const Json& value, const std::string& path);

}  // namespace ssp::wire
