#include "ssp/errors/error_catalog.hpp"

#include <array>
#include <nlohmann/json.hpp>

#include "ssp/errors/errors.hpp"

namespace ssp {
namespace {

// §10.2 in SPEC order. HTTP statuses: the ones SPEC names (401, 403, 404, 413,
// 400 for blob.hash_mismatch) and, for the rest, the statuses the upstream
// server answers with; sync.client_wire_unsupported has no upstream row and
// takes 400 like its sibling sync.client_schema_unsupported (docs/download.md).
constexpr std::array kCatalog = {
    ErrorCatalogEntry{"operation.unknown", "not-found", false, "regenerateClient", 404},
    ErrorCatalogEntry{"operation.forbidden", "forbidden", false, "checkPermissions", 403},
    ErrorCatalogEntry{"operation.invalid_request", "invalid-request", false, "fixRequest", 400},
    ErrorCatalogEntry{"operation.result_too_large", "invalid-request", false, "fixRequest", 400},
    ErrorCatalogEntry{"operation.storage_unsupported", "internal", false, "inspectServer", 500},
    ErrorCatalogEntry{"operation.query_failed", "internal", false, "inspectServer", 500},
    ErrorCatalogEntry{"operation.execution_failed", "internal", false, "inspectServer", 500},
    ErrorCatalogEntry{"sync.auth_required", "auth-required", true, "refreshAuth", 401},
    ErrorCatalogEntry{"sync.auth_lease_required", "auth-required", true, "refreshAuth", 401},
    ErrorCatalogEntry{"sync.auth_lease_revoked", "auth-required", true, "refreshAuth", 401},
    ErrorCatalogEntry{"sync.forbidden", "forbidden", false, "checkPermissions", 403},
    ErrorCatalogEntry{"sync.invalid_request", "invalid-request", false, "fixRequest", 400},
    ErrorCatalogEntry{"sync.invalid_client_id", "invalid-request", false, "resetClientId", 400},
    ErrorCatalogEntry{"sync.invalid_subscription", "invalid-request", false, "fixRequest", 400},
    ErrorCatalogEntry{"sync.empty_commit", "invalid-request", false, "fixRequest", 400},
    ErrorCatalogEntry{"sync.unknown_table", "schema-mismatch", false, "regenerateClient", 400},
    ErrorCatalogEntry{"sync.row_missing", "not-found", false, "forceResync", 404},
    ErrorCatalogEntry{"sync.version_conflict", "conflict", false, "resolveConflict", 409},
    ErrorCatalogEntry{"sync.constraint_violation", "invalid-request", false, "fixRequest", 400},
    ErrorCatalogEntry{"sync.missing_scopes", "internal", false, "inspectServer", 500},
    ErrorCatalogEntry{"sync.crdt_merge_failed", "internal", false, "inspectServer", 500},
    ErrorCatalogEntry{"sync.idempotency_cache_miss", "internal", true, "retryLater", 500},
    ErrorCatalogEntry{"sync.too_many_operations", "invalid-request", false, "splitBatch", 400},
    ErrorCatalogEntry{"sync.not_found", "not-found", false, "forceResync", 404},
    ErrorCatalogEntry{"sync.segment_expired", "not-found", true, "retryLater", 404},
    ErrorCatalogEntry{"sync.cursor_expired", "reset-required", false, "rebootstrap", 400},
    ErrorCatalogEntry{"sync.scope_revoked", "scope-revoked", false, "checkPermissions", 403},
    ErrorCatalogEntry{"sync.rate_limited", "rate-limited", true, "retryLater", 429},
    ErrorCatalogEntry{"sync.schema_mismatch", "schema-mismatch", false, "regenerateClient", 400},
    ErrorCatalogEntry{"sync.client_schema_unsupported", "schema-mismatch", false, "upgradeClient",
                      400},
    ErrorCatalogEntry{"sync.client_wire_unsupported", "schema-mismatch", false, "upgradeClient",
                      400},
    ErrorCatalogEntry{"sync.websocket_connection_limit", "rate-limited", true, "retryLater", 429},
    ErrorCatalogEntry{"blob.not_found", "not-found", false, "fixRequest", 404},
    ErrorCatalogEntry{"blob.forbidden", "forbidden", false, "checkPermissions", 403},
    ErrorCatalogEntry{"blob.hash_mismatch", "invalid-request", false, "fixRequest", 400},
    ErrorCatalogEntry{"blob.too_large", "invalid-request", false, "fixRequest", 413},
};

}  // namespace

std::span<const ErrorCatalogEntry> error_catalog() { return kCatalog; }

const ErrorCatalogEntry& error_entry(std::string_view code) {
  for (const auto& entry : kCatalog) {
    if (entry.code == code) return entry;
  }
  throw InvalidArgument("error code '" + std::string(code) + "' is not in the §10.2 catalog");
}

ProtocolError protocol_error(std::string_view code, std::string message) {
  return ProtocolError{error_entry(code), std::move(message)};
}

nlohmann::ordered_json error_body(const ProtocolError& error) {
  return {{"code", error.entry.code},
          {"category", error.entry.category},
          {"retryable", error.entry.retryable},
          {"recommendedAction", error.entry.recommended_action},
          {"message", error.message}};
}

std::string error_body_json(const ProtocolError& error) {
  // nlohmann writes compact JSON as JSON.stringify does (the same escapes, keys
  // in insertion order); a message that is not UTF-8 gets U+FFFD, not a throw.
  return error_body(error).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace ssp
