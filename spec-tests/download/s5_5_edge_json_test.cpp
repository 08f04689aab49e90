// Edge JSON (fixtures/cases/edge_json/edge_json.json) at every site a
// candidate parses JSON from outside, asked of the candidate: the
// X-Syncular-Scopes header (EJ-1), scope.parse (EJ-2), the schema JSON
// (EJ-3) and a signed URL's payload (EJ-4). Each case is refused with the
// site's own error — never the JSON library's exception text — or read where
// the case file says JSON.parse reads it. Cases whose refusal at a site is
// the reference's choice (lone surrogates) are skipped there; the reference's
// own rule, stored JSON, the tools and the driver wire are self-tests
// (self-tests/edge_json_test.cpp, tools_*_test.cpp, driver-tests).
#include <gmock/gmock.h>

#include "harness/fixtures/case_table.hpp"
#include "harness/fixtures/download_fixtures.hpp"
#include "harness/fixtures/edge_json_cases.hpp"
#include "harness/fixtures/storage_fixtures.hpp"
#include "harness/gates/capability_gate.hpp"
#include "ssp/download/segment_download.hpp"
#include "ssp/download/signed_url_verdict.hpp"
#include "ssp/scopes/scope_resolution.hpp"
#include "ssp/storage/storage_errors.hpp"

namespace ssp::harness {
namespace {

// The failure text for a message that leaks the library's exception text.
std::string leaked(const std::string& message) {
  return has_json_library_text(message) ? "the JSON library's text reached the user: " + message
                                        : std::string();
}

class EdgeJsonDownload : public SegmentStoreTest {
 protected:
  void SetUp() override {
    SegmentStoreTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SSP_REQUIRE_CAPABILITY(candidate(), Capability::download);
  }

  // The decision for a caller allowed {"project_id":["p1"]} in partition p,
  // epoch-1, sending `header`, while table tasks declares project_id.
  SegmentDownloadOutcome download(const std::string& id, const std::string& header) {
    FixedScopeResolver resolver(kScopesP1);
    ServedTables served;
    served.declared_variables["tasks"] = {"project_id"};
    SegmentDownloadRequest request;
    request.segment_id = id;
    request.partition = "p";
    request.log_epoch = "epoch-1";
    request.actor_id = "actor-1";
    request.scopes_header = header;
    request.now_ms = kNow + 1;
    return candidate().download().authorize(store(), resolver, served, request);
  }
};
SSP_ALL_BACKENDS(EdgeJsonDownload);

TEST_P(EdgeJsonDownload, EJ_1_EdgeJsonInTheScopesHeaderIsInvalidRequestOrReadAsJsonParse) {
  record_spec("§5.5", "EJ-1");
  const std::string id = store().put(published_for(kScopesP1), payload("edge"), kNow).segment_id;
  const std::string site = edge_json_site("scope_map");
  for (const auto& [c, header] : cases_reaching(edge_json_cases(), "scope_map", site)) {
    SCOPED_TRACE(c.name());
    const SegmentDownloadOutcome outcome = download(id, header);
    if (!c.reads_as().is_null() && outcome.http_status != 400) {
      // Read as JSON.parse reads it: {"project_id":["p1"]}, held, so served.
      // (A 400 for a repeated key is permissible too: SPEC has no rule for
      // it; the reference's reading is pinned by EJ-8.)
      EXPECT_EQ(outcome.http_status, 200) << (outcome.error ? outcome.error->message : "");
      EXPECT_EQ(outcome.step, DownloadStep::served) << download_step_name(outcome.step);
      EXPECT_EQ(outcome.bytes, payload("edge"));
      continue;
    }
    // Refused: every other value is not a list of strings, or (10 MiB) over the size limit.
    EXPECT_EQ(outcome.http_status, 400);
    EXPECT_EQ(outcome.step, DownloadStep::invalid_scopes_header) << download_step_name(outcome.step);
    ASSERT_TRUE(outcome.error);
    EXPECT_EQ(outcome.error->code(), error_code::invalid_request);
    EXPECT_EQ(leaked(outcome.error->message), "");
    EXPECT_FALSE(outcome.record);
    EXPECT_TRUE(outcome.bytes.empty());
  }
}

TEST(EdgeJsonScope, EJ_2_EdgeJsonInAScopeMapIsRefusedOrReadAsJsonParse) {
  record_spec("§3.2", "EJ-2");
  Candidate& candidate = current_candidate();
  SSP_REQUIRE_CAPABILITY(candidate, Capability::scope);
  ScopeArea& scope = candidate.scope();
  const std::string site = edge_json_site("scope_map");
  for (const auto& [c, text] : cases_reaching(edge_json_cases(), "scope_map", site)) {
    SCOPED_TRACE(c.name());
    if (c.accepted_at("scope_map")) {
      // Read as JSON.parse reads it, or refused: SPEC sets no size limit and
      // no rule for a repeated key, so either answer is permissible here
      // (the reference's reading is pinned by EJ-5, EJ-6 and EJ-8).
      ScopeMap scopes;
      try {
        scopes = scope.parse(text);
      } catch (const InvalidScopeMap& refused) {
        EXPECT_EQ(leaked(refused.what()), "");
        continue;
      }
      if (!c.reads_as().is_null()) {
        EXPECT_EQ(nlohmann::json(scopes), c.reads_as());
      } else {
        // The 10 MiB string, whole: the document less {"project_id":[""]}.
        ASSERT_EQ(scopes.size(), 1u);
        ASSERT_EQ(scopes.at("project_id").size(), 1u);
        EXPECT_EQ(scopes.at("project_id")[0].size(),
                  text.size() - std::string(R"({"project_id":[""]})").size());
      }
      continue;
    }
    try {
      scope.parse(text);
      ADD_FAILURE() << "read";
    } catch (const InvalidScopeMap& refused) {
      EXPECT_EQ(leaked(refused.what()), "");
    }
  }
}

TEST(EdgeJsonSchema, EJ_3_EdgeJsonInASchemaIsASchemaError) {
  record_spec("§2.4", "EJ-3");
  SSP_REQUIRE_CAPABILITY(current_candidate(), Capability::schema);
  SchemaArea& schema = current_candidate().schema();
  const std::string site = edge_json_schema_template();
  // The template with an ordinary version is the example schema.
  EXPECT_EQ(schema.parse(fill_placeholders(site, {{"value", "3"}})), example_schema());
  for (const auto& [c, text] : cases_reaching(edge_json_cases(), "schema", site)) {
    SCOPED_TRACE(c.name());
    ASSERT_FALSE(c.accepted_at("schema")) << "a version is an integer: nothing else is read";
    try {
      schema.parse(text);
      ADD_FAILURE() << "read";
    } catch (const storage::SchemaError& refused) {
      EXPECT_EQ(leaked(refused.what()), "");
    }
  }
}

// Verifying needs a store (the D12 epoch rule), so this runs on every backend.
class EdgeJsonSignedUrl : public SegmentStoreTest {};
SSP_ALL_BACKENDS(EdgeJsonSignedUrl);

TEST_P(EdgeJsonSignedUrl, EJ_4_ACorrectlySignedPayloadWithEdgeJsonIsMalformed) {
  record_spec("§5.4", "EJ-4");
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::signed_url);
  SignedUrlArea& urls = candidate().signed_urls();
  const UrlSigningKey key{Bytes(32, 7)};
  const SegmentMetadata metadata = published_for(kScopesP1);
  const std::string id = store().put(metadata, payload("signed"), kNow).segment_id;
  const std::map<std::string, std::string> claims = {
      {"segment", id}, {"digest", metadata.scope_digest}, {"audience", urls.audience(key, "p")}};
  const auto epoch_of = [](const std::string& partition) -> std::optional<std::string> {
    if (partition == "p") return std::string("epoch-1");
    return std::nullopt;
  };
  const std::string site = edge_json_site("signed_url");
  // Signed correctly with an ordinary exp, the template is accepted, so
  // each refusal below is the edge value's.
  std::map<std::string, std::string> ordinary = claims;
  ordinary["value"] = "1750000600";
  EXPECT_TRUE(urls.verify(key, urls.sign_payload(key, fill_placeholders(site, ordinary)), id,
                          store(), epoch_of, kNow)
                  .accepted());
  for (const auto& [c, text] : cases_reaching(edge_json_cases(), "signed_url", site, claims)) {
    SCOPED_TRACE(c.name());
    ASSERT_FALSE(c.accepted_at("signed_url")) << "exp is an integer: nothing else is read";
    const SignedUrlVerdict verdict =
        urls.verify(key, urls.sign_payload(key, text), id, store(), epoch_of, kNow);
    ASSERT_FALSE(verdict.accepted());
    EXPECT_EQ(verdict.refusal, TokenRefusal::malformed);
    ASSERT_TRUE(verdict.error);
    EXPECT_EQ(verdict.error->code(), error_code::forbidden);
    EXPECT_EQ(leaked(verdict.error->message), "");
    EXPECT_FALSE(verdict.record);
    EXPECT_TRUE(verdict.bytes.empty());
  }
}

}  // namespace
}  // namespace ssp::harness
