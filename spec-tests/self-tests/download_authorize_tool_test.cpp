// The reference's `ssp-segments authorize` report (DL-R9): the decision of
// authorize_segment_download explained as JSON with upstream field names.
// The JSON shape is the reference tool's own; the decision itself is judged
// on any candidate by SegmentDownload (s5_5_segment_download_test.cpp).
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include "harness/fixtures/download_fixtures.hpp"
#include "ssp/download/download_report.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/scopes/scope_map.hpp"

namespace ssp::harness {
namespace {

class AuthorizeTool : public SegmentStoreTest {};
SSP_ALL_BACKENDS(AuthorizeTool);

TEST_P(AuthorizeTool, DL_R9_AuthorizeCommandExplainsTheDecisionAsJson) {
  record_spec("§5.5", "DL-R9");
  const std::string id = store().put(published_for(kScopesP1), Bytes{1, 2, 3}, kNow).segment_id;
  AuthorizeCommand command;
  command.segment_id = id;
  command.partition = "p";
  command.log_epoch = "epoch-1";
  command.scopes_json = R"({"project_id":["p2"]})";
  command.allowed_json = R"({"project_id":["p1","p2"]})";
  command.now_ms = kNow + 1;
  EXPECT_EQ(
      run_authorize_command(store(), command),
      R"j({"status":403,"step":"scope_digest_mismatch","error":{"code":"sync.forbidden",)j"
      R"j("category":"forbidden","retryable":false,"recommendedAction":"checkPermissions",)j"
      R"j("message":"scope digest mismatch (§3.5, §5.5)"},"headers":{},"record":null,)j"
      R"j("bytesLength":null,"effectiveScopes":{"project_id":["p2"]},"scopeStatus":"active",)j"
      R"j("revokedBecause":null,)j"
      R"j("scopeDigest":"4f31ff4f5a00cc2ce2b6cb605c994d2283e3b03293c35c8791f2eb7f84cde4e2",)j"
      R"j("inContext":[{"partition":"p","logEpoch":"epoch-1","table":"tasks","schemaVersion":1,)j"
      R"j("mediaType":"sqlite",)j"
      R"j("scopeDigest":"46cf18d6bb2b57ec98116335c988810ed464a447bd574695bc165da7631414f6",)j"
      R"j("asOfCommitSeq":42,"rowCount":5,"rowCursor":null,"nextRowCursor":null,"byteLength":3,)j"
      R"j("createdAtMs":1750000000000,"expiresAtMs":1750086400000}]})j");

  command.scopes_json = R"({"project_id":["p1"]})";
  // Not const: a missing field then reads as null and fails the comparison
  // (const operator[] on a missing key is undefined behaviour).
  auto served = nlohmann::json::parse(run_authorize_command(store(), command));
  EXPECT_EQ(served["status"], 200);
  EXPECT_EQ(served["step"], "served");
  EXPECT_EQ(served["headers"]["ETag"], "\"" + id + "\"");
  EXPECT_EQ(served["record"]["segmentId"], id);
  EXPECT_EQ(served["record"]["scopeDigests"], nlohmann::json::array({kDigestP1}));
  EXPECT_EQ(served["bytesLength"], 3);

  // Without --tables every published table counts as served; with it, not.
  const std::string retired =
      store().put(published_for(kScopesP1, "retired"), payload("retired"), kNow).segment_id;
  command.segment_id = retired;
  EXPECT_EQ(nlohmann::json::parse(run_authorize_command(store(), command))["step"], "served");
  command.tables_json = R"({"tasks":["project_id"]})";
  EXPECT_EQ(nlohmann::json::parse(run_authorize_command(store(), command))["step"],
            "table_not_served");
  // A bad header is an outcome; a bad --allowed or --tables is a usage error.
  command.scopes_json = "nope";
  EXPECT_EQ(nlohmann::json::parse(run_authorize_command(store(), command))["step"],
            "invalid_scopes_header");
  command.allowed_json = "[]";
  EXPECT_THROW(run_authorize_command(store(), command), InvalidScopeMap);
  command.allowed_json = "{}";
  command.tables_json = R"({"tasks":"project_id"})";
  EXPECT_THROW(run_authorize_command(store(), command), InvalidScopeMap);
}

}  // namespace
}  // namespace ssp::harness
