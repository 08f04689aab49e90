// How a download reads its X-Syncular-Scopes header (§5.5, §3.2, §11.2): as
// strictly as upstream's JSON.parse (DL-R11), and with every key an ordinary
// key, names of Object.prototype members included (SR-R5, DL-R12), where
// upstream drops "__proto__" and answers 500 for "constructor" or "toString"
// (docs/decisions.md). Digests are sha256 of the canonical text, computed
// with Python's hashlib. Everything is asked of the candidate (its download
// and scope areas); the byte-order-mark cases are
// fixtures/cases/download/dl_r11_byte_order_marks.json.
#include <gmock/gmock.h>

#include "harness/fixtures/case_table.hpp"
#include "harness/fixtures/download_fixtures.hpp"
#include "ssp/download/segment_download.hpp"
#include "ssp/scopes/scope_resolution.hpp"

namespace ssp::harness {
namespace {

using ::testing::HasSubstr;

// {"__proto__":["x"]} and its digest.
const std::string kProtoHeader = R"({"__proto__":["x"]})";
const std::string kProtoDigest = "7ec4ac6fed1c9a8438da03b0e473d152087eabc6d1b76cc42643ba7f3ab137d2";

class ScopesHeader : public SegmentStoreTest {
 protected:
  void SetUp() override {
    SegmentStoreTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SSP_REQUIRE_CAPABILITY(candidate(), Capability::download);
  }

  // The decision for a caller of partition p in epoch-1 who is allowed
  // `allowed`, sending `header`, while table tasks declares `declared`.
  SegmentDownloadOutcome download(const std::string& id, const std::string& header,
                                  const ScopeMap& allowed, std::set<std::string> declared) {
    FixedScopeResolver resolver(allowed);
    ServedTables served;
    served.declared_variables["tasks"] = std::move(declared);
    SegmentDownloadRequest request;
    request.segment_id = id;
    request.partition = "p";
    request.log_epoch = "epoch-1";
    request.actor_id = "actor-1";
    request.scopes_header = header;
    request.now_ms = kNow + 1;
    return candidate().download().authorize(store(), resolver, served, request);
  }

  // Puts a segment published for the scopes whose digest is `digest`.
  std::string put_for_digest(const std::string& digest) {
    SegmentMetadata metadata = base_metadata();
    metadata.scope_digest = digest;
    return store().put(metadata, payload("scoped"), kNow).segment_id;
  }
};
SSP_ALL_BACKENDS(ScopesHeader);

// The status a client sees, and, for a reference-level test, the step the
// reference names (D-DOWNLOAD-STEPS: its attribution, which no client sees).
void expect_outcome(const SegmentDownloadOutcome& outcome, int status,
                    std::optional<DownloadStep> step = std::nullopt) {
  EXPECT_EQ(outcome.http_status, status) << (outcome.error ? outcome.error->message : "");
  if (step) {
    EXPECT_EQ(outcome.step, *step) << download_step_name(outcome.step);
  }
}

TEST_P(ScopesHeader, DL_R11_AHeaderWithAByteOrderMarkIsInvalidRequest) {
  record_spec("§5.5", "DL-R11");
  // {"project_id":["p1"]} hashes to this digest (§3.5 golden value).
  const std::string id =
      put_for_digest("46cf18d6bb2b57ec98116335c988810ed464a447bd574695bc165da7631414f6");
  const std::string header = R"({"project_id":["p1"]})";
  const ScopeMap allowed = {{"project_id", {"p1"}}};
  // Served without the mark, so the refusals below are the mark's.
  expect_outcome(download(id, header, allowed, {"project_id"}), 200);
  for (const auto& c : read_case_table("cases/download/dl_r11_byte_order_marks.json")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const std::string marked = c.at("header").get<std::string>();
    ASSERT_NE(marked.find(header), std::string::npos) << "each case marks this header";
    const SegmentDownloadOutcome refused = download(id, marked, allowed, {"project_id"});
    expect_outcome(refused, 400);
    ASSERT_TRUE(refused.error);
    EXPECT_EQ(refused.error->code(), error_code::invalid_request);
    EXPECT_FALSE(refused.record);
    EXPECT_TRUE(refused.bytes.empty());
  }
}

TEST(ScopeResolution, SR_R5_PrototypeMemberNamesAreOrdinaryKeys) {
  record_spec("§3.2", "SR-R5");
  Candidate& candidate = current_candidate();
  SSP_REQUIRE_CAPABILITY(candidate, Capability::scope);
  ScopeArea& scope = candidate.scope();
  const ScopeMap requested =
      scope.parse(R"({"toString":["z"],"__proto__":["x"],"constructor":["y"]})");
  EXPECT_EQ(requested,
            (ScopeMap{{"__proto__", {"x"}}, {"constructor", {"y"}}, {"toString", {"z"}}}));
  const ScopeDigestAnswer digest = scope.digest(requested);
  EXPECT_EQ(digest.canonical_json, R"({"__proto__":["x"],"constructor":["y"],"toString":["z"]})");
  // sha256 of that canonical text (python3 hashlib).
  EXPECT_EQ(digest.scope_digest,
            "8b6e4e73f017e8a3c32e8a8b3b9a4994fde445379b81f439b04dcfe0257541ff");

  // Not allowed: each revokes the request like any other missing key.
  for (const char* key : {"__proto__", "constructor", "toString"}) {
    SCOPED_TRACE(key);
    const EffectiveScopes effective =
        scope.effective({{key, {"x"}}, {"project_id", {"p1"}}}, {{"project_id", {"p1"}}});
    EXPECT_EQ(effective.status, ScopeStatus::revoked);
    EXPECT_TRUE(effective.scopes.empty());
  }
  // Allowed: intersected like any other key, '*' included.
  const EffectiveScopes effective = scope.effective(
      requested, {{"__proto__", {"x", "w"}}, {"constructor", {"*"}}, {"toString", {"z"}}});
  EXPECT_EQ(effective.status, ScopeStatus::active);
  EXPECT_EQ(effective.scopes, requested);
}

// Reference level (docs/decisions.md, "error messages"): SPEC words no reason.
TEST(ScopeResolution, SR_R5_REF_TheRevocationNamesThePrototypeMemberKey) {
  record_spec("§3.2", "SR-R5-REF");
  Candidate& candidate = current_candidate();
  SSP_REQUIRE_CAPABILITY(candidate, Capability::scope);
  for (const char* key : {"__proto__", "constructor", "toString"}) {
    SCOPED_TRACE(key);
    const EffectiveScopes effective = candidate.scope().effective(
        {{key, {"x"}}, {"project_id", {"p1"}}}, {{"project_id", {"p1"}}});
    EXPECT_THAT(effective.revoked_because, HasSubstr(key)) << "the reason names the key";
  }
}

TEST_P(ScopesHeader, DL_R12_PrototypeMemberNamesAreForbiddenUnlessAllowed) {
  record_spec("§5.5", "DL-R12");
  const std::string id = put_for_digest(kProtoDigest);
  const ScopeMap project = {{"project_id", {"p1"}}};
  // Not allowed: forbidden, never dropped (upstream would drop "__proto__").
  expect_outcome(download(id, kProtoHeader, project, {"__proto__"}), 403);
  for (const std::string& header : {std::string(R"({"constructor":["x"]})"),
                                    std::string(R"({"toString":["x"]})")}) {
    SCOPED_TRACE(header);
    expect_outcome(download(id, header, project, {"constructor", "toString"}), 403);
  }
  // Allowed and declared: served like any key.
  const ScopeMap allowed = {{"__proto__", {"x"}}};
  const SegmentDownloadOutcome served = download(id, kProtoHeader, allowed, {"__proto__"});
  expect_outcome(served, 200);
  ASSERT_TRUE(served.effective_digest);
  EXPECT_EQ(*served.effective_digest, kProtoDigest);
}

// Reference level (docs/decisions.md, "requested scope keys"): an undeclared
// key is invalid_subscription at upstream's step 7 (DL-R6, 0.22), but
// upstream drops "__proto__" before that step, so this answer is ours.
TEST_P(ScopesHeader, DL_R12_REF_AnUndeclaredPrototypeMemberNameIsInvalidSubscription) {
  record_spec("§5.5", "DL-R12-REF");
  const std::string id = put_for_digest(kProtoDigest);
  expect_outcome(download(id, kProtoHeader, {{"__proto__", {"x"}}}, {"project_id"}), 400,
                 DownloadStep::undeclared_scope_key);
}

}  // namespace
}  // namespace ssp::harness
