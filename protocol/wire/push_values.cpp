#include "wire/push_values.hpp"

#include <utility>

#include "ssp/encoding/base64.hpp"
#include "wire/wire_values.hpp"

namespace ssp::wire {
namespace {

// A name table for one enum: encoders look the value up, decoders the name,
// and a name outside the table is a WireError listing the accepted ones.
template <class Enum, std::size_t N>
struct Names {
  std::pair<Enum, std::string_view> entries[N];

  std::string_view name(Enum value) const {
    for (const auto& [entry, text] : entries) {
      if (entry == value) return text;
    }
    return "?";
  }
  Enum at(const Fields& f, std::string_view field) const {
    const std::string text = f.text(field);
    std::string accepted;
    for (const auto& [entry, name] : entries) {
      if (name == text) return entry;
      accepted += (accepted.empty() ? "\"" : ", \"") + std::string(name) + "\"";
    }
    throw WireError(f.path_of(field) + ": not one of " + accepted);
  }
};

constexpr Names<push::OperationKind, 2> kOperationKinds{
    {{push::OperationKind::upsert, "upsert"}, {push::OperationKind::remove, "delete"}}};
constexpr Names<storage::ChangeOp, 2> kChangeOps{
    {{storage::ChangeOp::upsert, "upsert"}, {storage::ChangeOp::remove, "delete"}}};
constexpr Names<push::OperationStatus, 3> kRecordStatuses{
    {{push::OperationStatus::applied, "applied"},
     {push::OperationStatus::conflict, "conflict"},
     {push::OperationStatus::error, "error"}}};
constexpr Names<push::PushStatus, 2> kStoredStatuses{
    {{push::PushStatus::applied, "applied"}, {push::PushStatus::rejected, "rejected"}}};
constexpr Names<push::PushAnswerStatus, 3> kAnswerStatuses{
    {{push::PushAnswerStatus::applied, "applied"},
     {push::PushAnswerStatus::cached, "cached"},
     {push::PushAnswerStatus::rejected, "rejected"}}};

template <class T>
Json nullable(const std::optional<T>& value) {
  return value ? Json(*value) : Json();
}

Json nullable_bytes(const std::optional<Bytes>& value) {
  return value ? Json(base64_encode(*value)) : Json();
}

std::optional<Bytes> nullable_bytes_at(const Fields& f, std::string_view name) {
  if (f.at(name).is_null()) return std::nullopt;
  return f.bytes(name);
}

Json nullable_row(const std::optional<storage::Row>& row) {
  return row ? row_to_json(*row) : Json();
}

std::optional<storage::Row> nullable_row_at(const Fields& f, std::string_view name) {
  if (f.at(name).is_null()) return std::nullopt;
  return row_from_json(f.at(name), f.path_of(name));
}

template <class T, class Encode>
Json list_to_json(const std::vector<T>& items, Encode encode) {
  Json out = Json::array();
  for (const T& item : items) out.push_back(encode(item));
  return out;
}

template <class Decode>
auto list_from_json(const Fields& f, std::string_view name, Decode decode) {
  const Json& list = array_value(f.at(name), f.path_of(name));
  std::vector<decltype(decode(list, std::string()))> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    out.push_back(decode(list[i], element_path(f.path_of(name), i)));
  }
  return out;
}

Json text_map_to_json(const std::map<std::string, std::string>& map) {
  Json out = Json::object();
  for (const auto& [key, value] : map) out[key] = value;
  return out;
}

std::map<std::string, std::string> text_map_at(const Fields& f, std::string_view name) {
  const Fields map = f.object(name);
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : f.at(name).items()) out[key] = map.text(key);
  return out;
}

Json operation_to_json(const push::PushOperation& op) {
  return Json{{"table", op.table},
              {"rowId", op.row_id},
              {"op", kOperationKinds.name(op.op)},
              {"payload", nullable_bytes(op.payload)},
              {"baseVersion", nullable(op.base_version)}};
}

push::PushOperation operation_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  return push::PushOperation{f.text("table"), f.text("rowId"), kOperationKinds.at(f, "op"),
                             nullable_bytes_at(f, "payload"), f.nullable_integer("baseVersion")};
}

Json evidence_to_json(const push::OperationEvidence& evidence) {
  return Json{{"opIndex", evidence.op_index},
              {"op", kOperationKinds.name(evidence.op)},
              {"table", evidence.table},
              {"rowId", evidence.row_id},
              {"row", nullable_row(evidence.row)},
              {"stored", nullable_row(evidence.stored)},
              {"storedServerVersion", nullable(evidence.stored_server_version)},
              {"nextServerVersion", nullable(evidence.next_server_version)}};
}

push::OperationEvidence evidence_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  return push::OperationEvidence{f.integer("opIndex"),
                                 kOperationKinds.at(f, "op"),
                                 f.text("table"),
                                 f.text("rowId"),
                                 nullable_row_at(f, "row"),
                                 nullable_row_at(f, "stored"),
                                 f.nullable_integer("storedServerVersion"),
                                 f.nullable_integer("nextServerVersion")};
}

}  // namespace

std::optional<push::PushHookPoint> push_hook_point_from_name(std::string_view name) {
  for (int i = 0; i <= static_cast<int>(push::PushHookPoint::before_commit); ++i) {
    const auto point = static_cast<push::PushHookPoint>(i);
    if (push::push_hook_point_name(point) == name) return point;
  }
  return std::nullopt;
}

Json push_actor_to_json(const push::PushActor& actor) {
  return Json{{"partition", actor.partition},
              {"actorId", actor.actor_id},
              {"allowedScopes", actor.allowed_scopes ? scope_map_to_json(*actor.allowed_scopes)
                                                     : Json()}};
}

push::PushActor push_actor_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  push::PushActor actor{f.text("partition"), f.text("actorId"), std::nullopt};
  if (!f.at("allowedScopes").is_null()) {
    actor.allowed_scopes = scope_map_from_json(f.at("allowedScopes"), f.path_of("allowedScopes"));
  }
  return actor;
}

Json push_commit_to_json(const push::PushCommit& commit) {
  return Json{{"clientId", commit.client_id},
              {"clientCommitId", commit.client_commit_id},
              {"operations", list_to_json(commit.operations, operation_to_json)}};
}

push::PushCommit push_commit_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  return push::PushCommit{f.text("clientId"), f.text("clientCommitId"),
                          list_from_json(f, "operations", operation_from_json)};
}

Json operation_result_to_json(const push::OperationResult& record) {
  Json out{{"opIndex", record.op_index}, {"status", kRecordStatuses.name(record.status)}};
  if (record.status == push::OperationStatus::conflict) {
    out["code"] = record.code;
    out["message"] = record.message;
    out["serverVersion"] = nullable(record.server_version);
    out["serverRow"] = nullable_bytes(record.server_row);
  } else if (record.status == push::OperationStatus::error) {
    out["code"] = record.code;
    out["message"] = record.message;
    out["retryable"] = record.retryable;
    out["details"] = nullable(record.details_json);
  }
  return out;
}

push::OperationResult operation_result_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  push::OperationResult record;
  record.op_index = f.integer("opIndex");
  record.status = kRecordStatuses.at(f, "status");
  if (record.status == push::OperationStatus::conflict) {
    record.code = f.text("code");
    record.message = f.text("message");
    record.server_version = f.nullable_integer("serverVersion");
    record.server_row = nullable_bytes_at(f, "serverRow");
  } else if (record.status == push::OperationStatus::error) {
    record.code = f.text("code");
    record.message = f.text("message");
    record.retryable = f.boolean("retryable");
    record.details_json = f.nullable_text("details");
  }
  return record;
}

Json stored_push_result_to_json(const push::StoredPushResult& result) {
  return Json{{"status", kStoredStatuses.name(result.status)},
              {"commitSeq", nullable(result.commit_seq)},
              {"recordedAtMs", nullable(result.recorded_at_ms)},
              {"cacheIdentity", nullable(result.cache_identity)},
              {"results", list_to_json(result.results, operation_result_to_json)}};
}

push::StoredPushResult stored_push_result_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  push::StoredPushResult result;
  result.status = kStoredStatuses.at(f, "status");
  result.commit_seq = f.nullable_integer("commitSeq");
  result.recorded_at_ms = f.nullable_integer("recordedAtMs");
  result.cache_identity = f.nullable_text("cacheIdentity");
  result.results = list_from_json(f, "results", operation_result_from_json);
  return result;
}

Json stored_result_answer_to_json(const std::optional<push::StoredPushResult>& result) {
  return Json{{"result", result ? stored_push_result_to_json(*result) : Json()}};
}

std::optional<push::StoredPushResult> stored_result_answer_from_json(const Json& value,
                                                                     const std::string& path) {
  const Json& stored = Fields(value, path).at("result");
  if (stored.is_null()) return std::nullopt;
  return stored_push_result_from_json(stored, path + ".result");
}

Json push_answer_to_json(const push::PushAnswer& answer) {
  return Json{{"status", kAnswerStatuses.name(answer.status)},
              {"commitSeq", nullable(answer.commit_seq)},
              {"results", list_to_json(answer.results, operation_result_to_json)},
              {"replayed", answer.replayed}};
}

push::PushAnswer push_answer_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  push::PushAnswer answer;
  answer.status = kAnswerStatuses.at(f, "status");
  answer.commit_seq = f.nullable_integer("commitSeq");
  answer.results = list_from_json(f, "results", operation_result_from_json);
  answer.replayed = f.boolean("replayed");
  return answer;
}

Json change_to_json(const storage::Change& change) {
  return Json{{"table", change.table},
              {"rowId", change.row_id},
              {"op", kChangeOps.name(change.op)},
              {"rowVersion", nullable(change.row_version)},
              {"scopes", text_map_to_json(change.scopes)},
              {"payload", nullable_bytes(change.payload)}};
}

storage::Change change_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  return storage::Change{f.text("table"),
                         f.text("rowId"),
                         kChangeOps.at(f, "op"),
                         f.nullable_integer("rowVersion"),
                         text_map_at(f, "scopes"),
                         nullable_bytes_at(f, "payload")};
}

Json commit_entry_to_json(const storage::CommitEntry& entry) {
  return Json{{"clientId", entry.client_id},
              {"clientCommitId", entry.client_commit_id},
              {"actorId", entry.actor_id},
              {"createdAtMs", entry.created_at_ms},
              {"changes", list_to_json(entry.changes, change_to_json)}};
}

storage::CommitEntry commit_entry_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  return storage::CommitEntry{f.text("clientId"), f.text("clientCommitId"), f.text("actorId"),
                              f.integer("createdAtMs"), list_from_json(f, "changes", change_from_json)};
}

Json commit_to_json(const storage::Commit& commit) {
  Json out{{"commitSeq", commit.commit_seq}};
  out.update(commit_entry_to_json(commit.entry));
  return out;
}

storage::Commit commit_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  return storage::Commit{f.integer("commitSeq"), commit_entry_from_json(value, path)};
}

Json row_scan_to_json(const storage::RowScan& scan) {
  return Json{{"table", scan.table},
              {"scopeFilter", scope_map_to_json(scan.scope_filter)},
              {"afterRowId", nullable(scan.after_row_id)},
              {"limit", scan.limit}};
}

storage::RowScan row_scan_from_fields(const Fields& f) {
  return storage::RowScan{f.text("table"),
                          scope_map_from_json(f.at("scopeFilter"), f.path_of("scopeFilter")),
                          f.nullable_text("afterRowId"), f.integer("limit")};
}

Json row_validation_to_json(const push::RowValidation& op) {
  return Json{{"op", kOperationKinds.name(op.op)},
              {"table", op.table},
              {"rowId", op.row_id},
              {"row", nullable_row(op.row)},
              {"stored", nullable_row(op.stored)},
              {"actorId", op.actor_id},
              {"partition", op.partition}};
}

push::RowValidation row_validation_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  return push::RowValidation{kOperationKinds.at(f, "op"),    f.text("table"),
                             f.text("rowId"),                nullable_row_at(f, "row"),
                             nullable_row_at(f, "stored"),   f.text("actorId"),
                             f.text("partition")};
}

Json commit_validation_to_json(const push::CommitValidation& input) {
  return Json{{"clientId", input.client_id},
              {"clientCommitId", input.client_commit_id},
              {"actorId", input.actor_id},
              {"partition", input.partition},
              {"operations", list_to_json(input.operations, evidence_to_json)}};
}

CommitValidationFields commit_validation_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  return CommitValidationFields{f.text("clientId"), f.text("clientCommitId"), f.text("actorId"),
                                f.text("partition"),
                                list_from_json(f, "operations", evidence_from_json)};
}

Json notification_to_json(const push::CommitNotification& notification) {
  return Json{{"partition", notification.partition},
              {"commitSeq", notification.commit_seq},
              {"createdAtMs", notification.created_at_ms},
              {"actorId", notification.actor_id},
              {"changes", list_to_json(notification.changes, change_to_json)}};
}

push::CommitNotification notification_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  return push::CommitNotification{f.text("partition"), f.integer("commitSeq"),
                                  f.integer("createdAtMs"), f.text("actorId"),
                                  list_from_json(f, "changes", change_from_json)};
}

Json verdict_to_json(const ValidatorVerdict& verdict) {
  switch (verdict.kind) {
    case ValidatorVerdict::Kind::accepted: return Json::object();
    case ValidatorVerdict::Kind::threw: return Json{{"threw", verdict.message}};
    case ValidatorVerdict::Kind::rejected: break;
  }
  Json rejection{{"code", verdict.code},
                 {"message", verdict.message},
                 {"details", nullable(verdict.details_json)}};
  if (verdict.op_index) rejection["opIndex"] = *verdict.op_index;
  return Json{{"rejection", std::move(rejection)}};
}

ValidatorVerdict verdict_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  ValidatorVerdict verdict;
  if (f.has("rejection")) {
    const Fields rejection = f.object("rejection");
    verdict.kind = ValidatorVerdict::Kind::rejected;
    verdict.code = rejection.text("code");
    verdict.message = rejection.text("message");
    verdict.details_json = rejection.nullable_text("details");
    if (rejection.has("opIndex")) verdict.op_index = rejection.integer("opIndex");
  } else if (f.has("threw")) {
    verdict.kind = ValidatorVerdict::Kind::threw;
    verdict.message = f.text("threw");
  }
  return verdict;
}

}  // namespace ssp::wire
