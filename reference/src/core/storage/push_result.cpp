#include "ssp/storage/push_result.hpp"

#include <nlohmann/json.hpp>

#include "ssp/encoding/base64.hpp"
#include "ssp/encoding/json_input.hpp"
#include "ssp/encoding/json_safe_integer.hpp"
#include "ssp/storage/push_result_json.hpp"

namespace ssp::push {
namespace {

using Json = nlohmann::ordered_json;

std::string_view operation_status_name(OperationStatus status) {
  switch (status) {
    case OperationStatus::applied: return "applied";
    case OperationStatus::conflict: return "conflict";
    case OperationStatus::error: return "error";
  }
  return "error";
}

Json operation_json(const OperationResult& result) {
  Json record{{"opIndex", result.op_index}, {"status", operation_status_name(result.status)}};
  if (result.status == OperationStatus::applied) return record;
  record["code"] = result.code;
  record["message"] = result.message;
  if (result.status == OperationStatus::conflict) {
    record["serverVersion"] = result.server_version.value_or(0);
    record["serverRow"] = base64_encode(result.server_row.value_or(storage::Bytes{}));
  } else {
    record["retryable"] = result.retryable;
    if (result.details_json) record["details"] = Json::parse(*result.details_json);
  }
  return record;
}

// Readers that turn every shape problem into the cache miss.
const Json& field(const Json& object, const char* name) {
  if (!object.is_object() || !object.contains(name)) throw IdempotencyCacheMiss();
  return object.at(name);
}
std::int64_t integer_field(const Json& object, const char* name) {
  const auto value = json_safe_integer(field(object, name));
  if (!value) throw IdempotencyCacheMiss();
  return *value;
}
std::string text_field(const Json& object, const char* name) {
  const Json& value = field(object, name);
  if (!value.is_string()) throw IdempotencyCacheMiss();
  return value.get<std::string>();
}
bool boolean_field(const Json& object, const char* name) {
  const Json& value = field(object, name);
  if (!value.is_boolean()) throw IdempotencyCacheMiss();
  return value.get<bool>();
}

OperationResult operation_from_json(const Json& record) {
  OperationResult result;
  result.op_index = integer_field(record, "opIndex");
  const std::string status = text_field(record, "status");
  if (status == "applied") return result;
  result.code = text_field(record, "code");
  result.message = text_field(record, "message");
  if (status == "conflict") {
    result.status = OperationStatus::conflict;
    result.server_version = integer_field(record, "serverVersion");
    auto row = base64_decode(text_field(record, "serverRow"));
    if (!row) throw IdempotencyCacheMiss();
    result.server_row = std::move(*row);
  } else if (status == "error") {
    result.status = OperationStatus::error;
    result.retryable = boolean_field(record, "retryable");
    if (record.contains("details")) result.details_json = record.at("details").dump();
  } else {
    throw IdempotencyCacheMiss();
  }
  return result;
}

}  // namespace

std::string push_result_json(const StoredPushResult& result) {
  Json stored{{"status", result.status == PushStatus::applied ? "applied" : "rejected"}};
  if (result.commit_seq) stored["commitSeq"] = *result.commit_seq;
  if (result.recorded_at_ms) stored["recordedAtMs"] = *result.recorded_at_ms;
  if (result.cache_identity) stored["cacheIdentity"] = *result.cache_identity;
  Json records = Json::array();
  for (const auto& record : result.results) records.push_back(operation_json(record));
  stored["results"] = std::move(records);
  return stored.dump();
}

StoredPushResult parse_push_result(std::string_view json_text) {
  Json stored;
  try {
    stored = parse_json_input<Json>(json_text);
  } catch (const JsonSyntaxError&) {
    throw IdempotencyCacheMiss();
  }
  StoredPushResult result;
  const std::string status = text_field(stored, "status");
  if (status != "applied" && status != "rejected") throw IdempotencyCacheMiss();
  result.status = status == "applied" ? PushStatus::applied : PushStatus::rejected;
  if (stored.contains("commitSeq")) result.commit_seq = integer_field(stored, "commitSeq");
  if (stored.contains("recordedAtMs")) result.recorded_at_ms = integer_field(stored, "recordedAtMs");
  if (stored.contains("cacheIdentity")) result.cache_identity = text_field(stored, "cacheIdentity");
  const Json& records = field(stored, "results");
  if (!records.is_array()) throw IdempotencyCacheMiss();
  for (const Json& record : records) result.results.push_back(operation_from_json(record));
  if (result.status == PushStatus::applied && !result.commit_seq) throw IdempotencyCacheMiss();
  return result;
}

}  // namespace ssp::push
