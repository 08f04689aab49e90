// The JSON text a stored push result is kept as in sync_push_results.result
// (SSP2 §2.3, §6.3; design notes push.md §5, storage.md §4.2).
#pragma once

#include <string>
#include <string_view>

#include "ssp/storage/push_result.hpp"

namespace ssp::push {

// The stored JSON: {"status","commitSeq"?,"recordedAtMs"?,"cacheIdentity"?,
// "results":[{"opIndex","status":"applied"} | {"opIndex","status":"conflict",
// "code","message","serverVersion","serverRow":base64} | {"opIndex",
// "status":"error","code","message","retryable","details"?}]}: the field
// names upstream stores, so either server replays the other's results.
std::string push_result_json(const StoredPushResult& result);

// Reads that JSON back. Throws IdempotencyCacheMiss for anything that is not
// such a document (not JSON, a missing or mistyped field, an unknown status).
StoredPushResult parse_push_result(std::string_view json_text);

}  // namespace ssp::push
