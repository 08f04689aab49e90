// SSP2 §10.1 error shape and §10.2 codes (EC-R* in docs/requirements/download.md).
// The expected table below is transcribed from the SPEC table, independently
// of reference/src/core/error_catalog.cpp; HTTP statuses the SPEC does not
// name follow upstream (docs/download.md).
#include <gmock/gmock.h>

#include <set>

#include "harness/spec.hpp"
#include "ssp/error_catalog.hpp"
#include "ssp/errors.hpp"

namespace ssp::harness {
namespace {

struct Expected {
  const char* code;
  const char* category;
  bool retryable;
  const char* action;
  int status;
};

constexpr Expected kSpecTable[] = {
    {"operation.unknown", "not-found", false, "regenerateClient", 404},
    {"operation.forbidden", "forbidden", false, "checkPermissions", 403},
    {"operation.invalid_request", "invalid-request", false, "fixRequest", 400},
    {"operation.result_too_large", "invalid-request", false, "fixRequest", 400},
    {"operation.storage_unsupported", "internal", false, "inspectServer", 500},
    {"operation.query_failed", "internal", false, "inspectServer", 500},
    {"operation.execution_failed", "internal", false, "inspectServer", 500},
    {"sync.auth_required", "auth-required", true, "refreshAuth", 401},
    {"sync.auth_lease_required", "auth-required", true, "refreshAuth", 401},
    {"sync.auth_lease_revoked", "auth-required", true, "refreshAuth", 401},
    {"sync.forbidden", "forbidden", false, "checkPermissions", 403},
    {"sync.invalid_request", "invalid-request", false, "fixRequest", 400},
    {"sync.invalid_client_id", "invalid-request", false, "resetClientId", 400},
    {"sync.invalid_subscription", "invalid-request", false, "fixRequest", 400},
    {"sync.empty_commit", "invalid-request", false, "fixRequest", 400},
    {"sync.unknown_table", "schema-mismatch", false, "regenerateClient", 400},
    {"sync.row_missing", "not-found", false, "forceResync", 404},
    {"sync.version_conflict", "conflict", false, "resolveConflict", 409},
    {"sync.constraint_violation", "invalid-request", false, "fixRequest", 400},
    {"sync.missing_scopes", "internal", false, "inspectServer", 500},
    {"sync.crdt_merge_failed", "internal", false, "inspectServer", 500},
    {"sync.idempotency_cache_miss", "internal", true, "retryLater", 500},
    {"sync.too_many_operations", "invalid-request", false, "splitBatch", 400},
    {"sync.not_found", "not-found", false, "forceResync", 404},
    {"sync.segment_expired", "not-found", true, "retryLater", 404},
    {"sync.cursor_expired", "reset-required", false, "rebootstrap", 400},
    {"sync.scope_revoked", "scope-revoked", false, "checkPermissions", 403},
    {"sync.rate_limited", "rate-limited", true, "retryLater", 429},
    {"sync.schema_mismatch", "schema-mismatch", false, "regenerateClient", 400},
    {"sync.client_schema_unsupported", "schema-mismatch", false, "upgradeClient", 400},
    {"sync.client_wire_unsupported", "schema-mismatch", false, "upgradeClient", 400},
    {"sync.websocket_connection_limit", "rate-limited", true, "retryLater", 429},
    {"blob.not_found", "not-found", false, "fixRequest", 404},
    {"blob.forbidden", "forbidden", false, "checkPermissions", 403},
    {"blob.hash_mismatch", "invalid-request", false, "fixRequest", 400},
    {"blob.too_large", "invalid-request", false, "fixRequest", 413},
};

TEST(ErrorCatalog, EC_R1_EveryCodeHasItsSpecCategoryRetryabilityActionAndStatus) {
  record_spec("§10.2", "EC-R1");
  ASSERT_EQ(error_catalog().size(), std::size(kSpecTable));
  for (const Expected& row : kSpecTable) {
    SCOPED_TRACE(row.code);
    const ErrorCatalogEntry& entry = error_entry(row.code);
    EXPECT_EQ(entry.code, row.code);
    EXPECT_EQ(entry.category, row.category);
    EXPECT_EQ(entry.retryable, row.retryable);
    EXPECT_EQ(entry.recommended_action, row.action);
    EXPECT_EQ(entry.http_status, row.status);
  }
}

TEST(ErrorCatalog, EC_R2_CodesAreUniqueAndActionsComeFromTheSpecList) {
  record_spec("§10.1", "EC-R2");
  const std::set<std::string_view> actions = {
      "refreshAuth",     "checkPermissions", "fixRequest",  "resetClientId",
      "regenerateClient", "upgradeClient",   "resolveConflict", "rebootstrap",
      "forceResync",     "retryLater",       "splitBatch",  "inspectServer"};
  std::set<std::string_view> codes;
  for (const ErrorCatalogEntry& entry : error_catalog()) {
    EXPECT_TRUE(codes.insert(entry.code).second) << "duplicate " << entry.code;
    EXPECT_TRUE(actions.contains(entry.recommended_action)) << entry.code;
  }
}

TEST(ErrorCatalog, EC_R3_TheSegmentCodesAreTheOnesSection5_5Names) {
  record_spec("§5.5", "EC-R3");
  EXPECT_EQ(error_entry(error_code::forbidden).http_status, 403);
  EXPECT_EQ(error_entry(error_code::not_found).http_status, 404);
  EXPECT_EQ(error_entry(error_code::segment_expired).http_status, 404);
  EXPECT_TRUE(error_entry(error_code::segment_expired).retryable);
  EXPECT_FALSE(error_entry(error_code::not_found).retryable);
  EXPECT_EQ(error_entry(error_code::invalid_request).category, "invalid-request");
  EXPECT_EQ(error_entry(error_code::invalid_subscription).category, "invalid-request");
}

TEST(ErrorCatalog, EC_R4_TheCatalogIsClosed) {
  record_spec("§10.3", "EC-R4");
  // Reserved codes without a producer and client-local codes are not wire codes.
  for (const char* code : {"sync.integrity_rejected", "sync.unsupported_operation",
                           "sync.auth_lease_invalid", "sync.offline", "sync.internal_error",
                           "host.custom", ""}) {
    SCOPED_TRACE(code);
    EXPECT_THROW(error_entry(code), InvalidArgument);
    EXPECT_THROW(protocol_error(code, "x"), InvalidArgument);
  }
}

TEST(ErrorCatalog, EC_R5_ErrorBodyHasTheSection10_1Shape) {
  record_spec("§10.1", "EC-R5");
  const ProtocolError error =
      protocol_error(error_code::segment_expired, "segment \"x\" expired\n");
  EXPECT_EQ(error.code(), "sync.segment_expired");
  EXPECT_EQ(error_body_json(error),
            R"({"code":"sync.segment_expired","category":"not-found","retryable":true,)"
            R"("recommendedAction":"retryLater","message":"segment \"x\" expired\n"})");
}

}  // namespace
}  // namespace ssp::harness
