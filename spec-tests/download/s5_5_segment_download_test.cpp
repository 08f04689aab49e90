// SSP2 §5.5 direct segment download at 0.22: per-publication re-authorization
// (design notes segments.md §3.7 and §4: R12, R18, R19, R21, R24, R28–R30,
// UPG-R38; DL-R* are this project's rows in docs/requirements/download.md),
// asked of the candidate's download area. Scope digests are known answers
// (download_fixtures.hpp); the tables of DL-R2, R3, R4 and R7 are
// fixtures/cases/download/. The reference's `ssp-segments authorize` report
// (DL-R9) is a self-test (self-tests/download_authorize_tool_test.cpp).
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include "harness/catalog/requirement_level.hpp"
#include "harness/fixtures/case_table.hpp"
#include "harness/fixtures/download_fixtures.hpp"
#include "harness/fixtures/fixture_files.hpp"
#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/util/require_found.hpp"
#include "ssp/download/segment_download.hpp"
#include "ssp/errors/protocol_error.hpp"

namespace ssp::harness {
namespace {

const ScopeMap kO1 = {{"org_id", {"o1"}}};
const ScopeMap kCamelP1 = {{"projectId", {"p1"}}};

// What the actor is allowed by default: every value the tests request.
ScopeMap allowed_everything() {
  return {{"project_id", {"p1", "p2"}}, {"org_id", {"o1"}}, {"projectId", {"p1"}}};
}

// tasks declares project_id; docs declares org_id and projectId, not project_id.
ServedTables served_tables() {
  ServedTables served;
  served.declared_variables["tasks"] = {"project_id"};
  served.declared_variables["docs"] = {"org_id", "projectId"};
  return served;
}

// The HTTP status §5.5 and §10.2 give each code these tests expect.
int status_of(std::string_view code) {
  if (code == error_code::forbidden) return 403;
  if (code == error_code::not_found || code == error_code::segment_expired) return 404;
  if (code == error_code::invalid_request || code == error_code::invalid_subscription) return 400;
  ADD_FAILURE() << "no status known for " << code;
  return 0;
}

// The authenticated caller of a download.
struct Caller {
  std::string partition = "p";
  std::string log_epoch = "epoch-1";
  ScopeMap allowed = allowed_everything();
};

class SegmentDownload : public SegmentStoreTest {
 protected:
  void SetUp() override {
    SegmentStoreTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SSP_REQUIRE_CAPABILITY(candidate(), Capability::download);
  }

  SegmentDownloadOutcome download_header(const std::string& id, const std::string& header,
                                         std::int64_t now_ms, const Caller& caller = {},
                                         std::optional<std::string> if_none_match = {}) {
    FixedScopeResolver resolver(caller.allowed);
    return download_with(resolver, id, header, now_ms, caller, std::move(if_none_match));
  }

  SegmentDownloadOutcome download(const std::string& id, const ScopeMap& requested,
                                  std::int64_t now_ms, const Caller& caller = {},
                                  std::optional<std::string> if_none_match = {}) {
    return download_header(id, scopes_header(requested), now_ms, caller,
                           std::move(if_none_match));
  }

  SegmentDownloadOutcome download_with(ScopeResolver& resolver, const std::string& id,
                                       const std::string& header, std::int64_t now_ms,
                                       const Caller& caller = {},
                                       std::optional<std::string> if_none_match = {}) {
    SegmentDownloadRequest request;
    request.segment_id = id;
    request.partition = caller.partition;
    request.log_epoch = caller.log_epoch;
    request.actor_id = "actor-1";
    request.scopes_header = header;
    request.if_none_match = std::move(if_none_match);
    request.now_ms = now_ms;
    return candidate().download().authorize(store(), resolver, served_tables(), request);
  }
};
SSP_ALL_BACKENDS(SegmentDownload);

// What a client sees of a download: the status, the error body, the bytes
// and the record. The `step` an outcome names is the reference's attribution
// (D-DOWNLOAD-STEPS), which no client sees: only a reference-level test asks
// for one.
void expect_served(const SegmentDownloadOutcome& outcome, const Bytes& bytes) {
  EXPECT_EQ(outcome.http_status, 200) << download_step_name(outcome.step);
  EXPECT_FALSE(outcome.error) << (outcome.error ? outcome.error->message : "");
  EXPECT_EQ(outcome.bytes, bytes);
  ASSERT_TRUE(outcome.record);
  EXPECT_EQ(outcome.record->publications.size(), 1u);
}

void expect_refused(const SegmentDownloadOutcome& outcome, std::string_view code,
                    std::optional<DownloadStep> step = std::nullopt) {
  ASSERT_TRUE(outcome.error) << "expected " << code << ", got status " << outcome.http_status;
  EXPECT_EQ(outcome.error->code(), code) << outcome.error->message;
  if (step) {
    EXPECT_EQ(outcome.step, *step) << download_step_name(outcome.step);
  }
  EXPECT_EQ(outcome.http_status, status_of(code));
  EXPECT_FALSE(outcome.record);
  EXPECT_TRUE(outcome.bytes.empty());
  EXPECT_TRUE(outcome.headers.empty());
}

// A case's header: "header" as text, or "header_hex" for bytes that are not UTF-8.
std::string case_header(const nlohmann::json& c) {
  if (!c.contains("header_hex")) return c.at("header").get<std::string>();
  const std::string hex = c.at("header_hex").get<std::string>();
  std::string bytes;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return bytes;
}

TEST_P(SegmentDownload, R12_EitherDigestOfIdenticalBytesDownloadsButNotTheirUnion) {
  record_spec("§5.5", "R12");
  const Bytes bytes = payload("shared");
  const std::string id = store().put(published_for(kScopesP1), bytes, kNow).segment_id;
  store().put(published_for(kScopesP2), bytes, kNow + 1);

  const auto first = download(id, kScopesP1, kNow + 2);
  ASSERT_NO_FATAL_FAILURE(expect_served(first, bytes));
  EXPECT_EQ(first.record->scope_digests, std::vector<std::string>{kDigestP1});
  const auto second = download(id, kScopesP2, kNow + 2);
  ASSERT_NO_FATAL_FAILURE(expect_served(second, bytes));
  EXPECT_EQ(second.record->scope_digests, std::vector<std::string>{kDigestP2});

  // The union of two grants is a third digest that no publication carries.
  expect_refused(download(id, {{"project_id", {"p1", "p2"}}}, kNow + 2), error_code::forbidden);

  // Upstream end-to-end case: {org_id:[o1]} and {projectId:[p1]} on docs.
  const Bytes docs_bytes = payload("docs");
  const std::string docs = store().put(published_for(kO1, "docs"), docs_bytes, kNow).segment_id;
  store().put(published_for(kCamelP1, "docs"), docs_bytes, kNow + 1);
  expect_served(download(docs, kO1, kNow + 2), docs_bytes);
  expect_served(download(docs, kCamelP1, kNow + 2), docs_bytes);
  expect_refused(download(docs, {{"org_id", {"o1"}}, {"projectId", {"p1"}}}, kNow + 2),
                 error_code::forbidden);

  // And the empty-payload variant on tasks.
  const std::string empty = store().put(published_for(kScopesP1), Bytes{}, kNow).segment_id;
  store().put(published_for(kScopesP2), Bytes{}, kNow + 1);
  expect_served(download(empty, kScopesP1, kNow + 2), Bytes{});
  expect_served(download(empty, kScopesP2, kNow + 2), Bytes{});
  expect_refused(download(empty, {{"project_id", {"p1", "p2"}}}, kNow + 2),
                 error_code::forbidden);
}

TEST_P(SegmentDownload, R18_IdenticalSegmentsFromTwoPartitionsEachDownloadInTheirOwn) {
  record_spec("§5.5", "R18");
  SegmentMetadata in_p1 = published_for(kScopesP1);
  in_p1.partition = "p1";
  SegmentMetadata in_p2 = published_for(kScopesP2);
  in_p2.partition = "p2";
  const std::string id = store().put(in_p1, Bytes{}, kNow).segment_id;
  store().put(in_p2, Bytes{}, kNow + 1);

  const auto from_p1 = download(id, kScopesP1, kNow + 2, Caller{"p1"});
  ASSERT_NO_FATAL_FAILURE(expect_served(from_p1, Bytes{}));
  EXPECT_EQ(from_p1.record->metadata.partition, "p1");
  const auto from_p2 = download(id, kScopesP2, kNow + 2, Caller{"p2"});
  ASSERT_NO_FATAL_FAILURE(expect_served(from_p2, Bytes{}));
  EXPECT_EQ(from_p2.record->metadata.partition, "p2");

  // p1 presenting p2's scopes: p1 has an in-epoch publication, so forbidden.
  expect_refused(download(id, kScopesP2, kNow + 2, Caller{"p1"}), error_code::forbidden);
  // A segment with no publication in p1 at all is unknown to p1.
  SegmentMetadata only_p2 = published_for(kScopesP2);
  only_p2.partition = "p2";
  const std::string foreign = store().put(only_p2, payload("p2 only"), kNow).segment_id;
  expect_refused(download(foreign, kScopesP2, kNow + 2, Caller{"p1"}), error_code::not_found);
}

TEST_P(SegmentDownload, R19_DescriptorFromARotatedEpochIsNotFound) {
  record_spec("§2.1", "R19");
  const Bytes bytes = payload("epoch");
  const std::string id = store().put(published_for(kScopesP1), bytes, kNow).segment_id;
  const Caller rotated{"p", "epoch-2"};
  expect_refused(download(id, kScopesP1, kNow + 1, rotated), error_code::not_found);

  SegmentMetadata republished = published_for(kScopesP1);
  republished.log_epoch = "epoch-2";
  store().put(republished, bytes, kNow + 2);
  const auto after = download(id, kScopesP1, kNow + 3, rotated);
  ASSERT_NO_FATAL_FAILURE(expect_served(after, bytes));
  EXPECT_EQ(after.record->metadata.log_epoch, "epoch-2");
  // The old epoch's publication is still stored but only downloads in its epoch.
  expect_served(download(id, kScopesP1, kNow + 3), bytes);
}

TEST_P(SegmentDownload, R21_NewerPublicationForAnotherTableDoesNotHideTheValidOne) {
  record_spec("§5.5", "R21");
  const Bytes bytes = payload("two tables");
  const std::string id = store().put(published_for(kScopesP1, "tasks"), bytes, kNow).segment_id;
  store().put(published_for(kScopesP1, "docs"), bytes, kNow + 1);  // docs lacks project_id
  const auto outcome = download(id, kScopesP1, kNow + 2);
  ASSERT_NO_FATAL_FAILURE(expect_served(outcome, bytes));
  EXPECT_EQ(outcome.record->metadata.table, "tasks");
}

TEST_P(SegmentDownload, R24_PrunedDigestIsForbiddenNotExpired) {
  record_spec("§5.1", "R24");
  const Bytes bytes = payload("pruned");
  const std::string id = store().put(published_for(kScopesP1), bytes, kNow).segment_id;
  store().put(published_for(kScopesP2), bytes, kNow + kTtl + 1);  // prunes p1's publication
  const auto record = require_found(store().get(id), "get(id)").record;
  ASSERT_EQ(record.publications.size(), 1u);
  EXPECT_EQ(record.scope_digests, std::vector<std::string>{kDigestP2});

  // Design-notes Q1, pinned: the grant is forgotten, so this is a digest
  // mismatch (checkPermissions), not sync.segment_expired (retryLater).
  const auto outcome = download(id, kScopesP1, kNow + kTtl + 2);
  ASSERT_NO_FATAL_FAILURE(
      expect_refused(outcome, error_code::forbidden));
  EXPECT_FALSE(outcome.error->entry.retryable);
  expect_served(download(id, kScopesP2, kNow + kTtl + 2), bytes);
}

TEST_P(SegmentDownload, R28_DownloadPastTheTtlIsRetryableSegmentExpired) {
  record_spec("§5.5", "R28");
  const std::string id = store().put(published_for(kScopesP1), payload("ttl"), kNow).segment_id;
  expect_served(download(id, kScopesP1, kNow + kTtl - 1), payload("ttl"));
  const auto outcome = download(id, kScopesP1, kNow + kTtl);  // expiresAt <= now is expired
  ASSERT_NO_FATAL_FAILURE(
      expect_refused(outcome, error_code::segment_expired));
  EXPECT_TRUE(outcome.error->entry.retryable);
  EXPECT_EQ(outcome.http_status, 404);
  expect_refused(download(id, kScopesP1, kNow + 25 * kHour), error_code::segment_expired);
}

TEST_P(SegmentDownload, R29_ExpiredPinDoesNotShadowALiveOne) {
  record_spec("§5.1", "R29");
  const Bytes bytes = payload("pins");
  const std::string id = store().put(with_pin(published_for(kScopesP1), 1), bytes, kNow).segment_id;
  store().put(with_pin(published_for(kScopesP1), 2), bytes, kNow + kHour);

  const std::int64_t after_a1 = kNow + kTtl + 1;
  const auto live_a2 = download(id, kScopesP1, after_a1);
  ASSERT_NO_FATAL_FAILURE(expect_served(live_a2, bytes));
  EXPECT_EQ(live_a2.record->metadata.as_of_commit_seq, 2);

  // Two live qualifying grants: SPEC §5.5 names no winner, so either answers
  // (the reference's choice, the newest, is ORD-2).
  store().put(with_pin(published_for(kScopesP1), 3), bytes, after_a1);
  const auto either = download(id, kScopesP1, after_a1 + 1);
  ASSERT_NO_FATAL_FAILURE(expect_served(either, bytes));
  EXPECT_THAT(either.record->metadata.as_of_commit_seq, ::testing::AnyOf(2, 3));
}

// docs/download.md step 9: among live qualifying grants the newest (last
// appended) answers; a reference-level choice, SPEC names none.
TEST_P(SegmentDownload, ORD_2_TheNewestQualifyingPublicationAnswers) {
  record_spec("§5.5", "ORD-2");
  const Bytes bytes = payload("pins");
  const std::string id = store().put(with_pin(published_for(kScopesP1), 2), bytes, kNow).segment_id;
  store().put(with_pin(published_for(kScopesP1), 3), bytes, kNow + 1);
  const auto newest = download(id, kScopesP1, kNow + 2);
  ASSERT_NO_FATAL_FAILURE(expect_served(newest, bytes));
  EXPECT_EQ(newest.record->metadata.as_of_commit_seq, 3);
}

TEST_P(SegmentDownload, R30_AnotherDigestsLivePublicationDoesNotRescueAnExpiredOne) {
  record_spec("§5.5", "R30");
  const Bytes bytes = payload("rescue");
  const std::string id = store().put(published_for(kScopesP1), bytes, kNow).segment_id;
  store().put(published_for(kScopesP2), bytes, kNow + kHour);
  const std::int64_t later = kNow + kTtl + 1;  // no put in between: nothing pruned
  expect_refused(download(id, kScopesP1, later), error_code::segment_expired);
  expect_served(download(id, kScopesP2, later), bytes);
}

TEST_P(SegmentDownload, UPG_R38_LegacyRowDownloadsUntilItExpires) {
  record_spec("§5.5", "UPG-R38");
  SSP_REQUIRE_SQL("the 0.21 row is seeded with raw SQL");
  if (backend() == Backend::postgres) {
    GTEST_SKIP() << "0.21 had no PostgreSQL segment store (design notes §2.5): no legacy rows";
  }
  // Row R of the 0.21 fixture (bytes 01 02 03), published for kScopesP1's digest.
  const std::string id = "sha256:039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81";
  database().exec(read_fixture("segments-0.21/normal.sql"));
  database().exec("UPDATE sync_segments SET scope_digest = '" + kDigestP1 +
                  "', log_epoch = 'e' WHERE segment_id = '" + id + "'");

  const Caller legacy_epoch{"p", "e"};
  const auto outcome = download(id, kScopesP1, kNow + 1, legacy_epoch);
  ASSERT_NO_FATAL_FAILURE(expect_served(outcome, Bytes{1, 2, 3}));
  EXPECT_EQ(outcome.record->metadata.as_of_commit_seq, 42);
  EXPECT_EQ(outcome.record->expires_at_ms, kNow + kTtl);
  expect_refused(download(id, kScopesP1, kNow + kTtl, legacy_epoch), error_code::segment_expired);
}

TEST_P(SegmentDownload, DL_R1_SuccessCarriesTheSpecHeadersAndTheNarrowedRecord) {
  record_spec("§5.5", "DL-R1");
  const Bytes bytes = payload("headers");
  const SegmentRecord put = store().put(published_for(kScopesP1), bytes, kNow);
  store().put(published_for(kScopesP2), bytes, kNow + 1);
  const auto outcome = download(put.segment_id, kScopesP1, kNow + 2);
  ASSERT_NO_FATAL_FAILURE(expect_served(outcome, bytes));
  EXPECT_EQ(outcome.headers,
            (std::vector<HttpHeader>{
                {"Content-Type", "application/octet-stream"},
                {"ETag", "\"" + put.segment_id + "\""},
                {"Cache-Control", "private, max-age=0"},
                {"Vary", "Authorization, X-Syncular-Scopes, Accept-Encoding"}}));
  EXPECT_EQ(outcome.record->segment_id, put.segment_id);
  EXPECT_EQ(outcome.record->metadata, published_for(kScopesP1));
  EXPECT_EQ(outcome.record->publications,
            std::vector<SegmentPublication>{fresh_publication(published_for(kScopesP1), 7, kNow)});
  EXPECT_EQ(outcome.effective_digest, kDigestP1);
}

TEST_P(SegmentDownload, DL_R2_NotFoundComesBeforeAnyScopeOrHeaderCheck) {
  record_spec("§5.5", "DL-R2");
  SegmentMetadata elsewhere = published_for(kScopesP1);
  elsewhere.partition = "other";
  const std::string id = store().put(elsewhere, payload("elsewhere"), kNow).segment_id;
  // A broken header, a throwing resolver and an expired publication all lose
  // to "no publication in your partition": existence must not leak.
  CallbackScopeResolver throwing([](const std::string&) -> std::optional<ScopeMap> {
    throw std::runtime_error("resolver down");
  });
  expect_refused(download_with(throwing, id, "not json", kNow + 10 * kTtl), error_code::not_found);
  const auto elsewhere_refused = download(id, kScopesP1, kNow + 1);
  const auto unknown_refused = download("sha256:" + std::string(64, '0'), kScopesP1, kNow + 1);
  ASSERT_TRUE(elsewhere_refused.error);
  ASSERT_TRUE(unknown_refused.error);
  EXPECT_EQ(elsewhere_refused.error->message, unknown_refused.error->message);
  // Unknown and malformed ids.
  expect_refused(download("sha256:" + std::string(64, '0'), kScopesP1, kNow), error_code::not_found);
  for (const auto& c : read_case_table("cases/download/dl_r2_malformed_ids.json")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const std::string malformed =
        fill_placeholders(c.at("segment_id").get<std::string>(), {{"stored", id}});
    expect_refused(download_with(throwing, malformed, "not json", kNow), error_code::not_found);
  }
}

TEST_P(SegmentDownload, DL_R3_MalformedScopesHeaderIsInvalidRequest) {
  record_spec("§5.5", "DL-R3");
  const std::string id = store().put(published_for(kScopesP1), payload("header"), kNow).segment_id;
  for (const auto& c : read_case_table("cases/download/dl_r3_malformed_scopes_headers.json")) {
    if (case_level(c) == RequirementLevel::reference) continue;  // DL-R3-REF's
    SCOPED_TRACE(c.at("name").get<std::string>());
    expect_refused(download_header(id, case_header(c), kNow + 1), error_code::invalid_request);
  }
  // Any whitespace and key order is accepted: the header is parsed, not hashed.
  expect_served(download_header(id, "  { \"project_id\" : [ \"p1\", \"p1\" ] }  ", kNow + 1),
                payload("header"));
}

// Reference level (D-SCOPES-HEADER): the size limit is ours (upstream has
// none), as are the refusals of the cases marked "reference".
TEST_P(SegmentDownload, DL_R3_REF_AHeaderPastTheSizeLimitIsInvalidRequest) {
  record_spec("§5.5", "DL-R3-REF");
  const std::string id = store().put(published_for(kScopesP1), payload("header"), kNow).segment_id;
  for (const auto& c : read_case_table("cases/download/dl_r3_malformed_scopes_headers.json")) {
    if (case_level(c) != RequirementLevel::reference) continue;
    SCOPED_TRACE(c.at("name").get<std::string>());
    expect_refused(download_header(id, case_header(c), kNow + 1), error_code::invalid_request,
                   DownloadStep::invalid_scopes_header);
  }
  // Size limit: 64 KiB of header is read, one byte more is refused unread.
  const std::string prefix = R"({"project_id":["p1"],"pad":[")";
  std::string at_limit = prefix + std::string(kMaxScopesHeaderBytes - prefix.size() - 3, 'x') +
                         "\"]}";
  ASSERT_EQ(at_limit.size(), kMaxScopesHeaderBytes);
  // At the limit the header parses; "pad" is not an allowed key, so revoked.
  expect_refused(download_header(id, at_limit, kNow + 1), error_code::forbidden,
                 DownloadStep::scopes_not_held);
  at_limit.insert(prefix.size(), "x");
  expect_refused(download_header(id, at_limit, kNow + 1), error_code::invalid_request,
                 DownloadStep::invalid_scopes_header);
}

TEST_P(SegmentDownload, DL_R4_ResolverFailureOutageOrRevocationIsForbidden) {
  record_spec("§5.5", "DL-R4");
  const std::string id =
      store().put(published_for(kScopesP1), payload("resolver"), kNow).segment_id;
  const std::string header = scopes_header(kScopesP1);

  CallbackScopeResolver throwing([](const std::string& actor) -> std::optional<ScopeMap> {
    EXPECT_EQ(actor, "actor-1");
    throw std::runtime_error("authority unreachable");
  });
  expect_refused(download_with(throwing, id, header, kNow + 1), error_code::forbidden);
  CallbackScopeResolver outage([](const std::string&) { return std::optional<ScopeMap>{}; });
  expect_refused(download_with(outage, id, header, kNow + 1), error_code::forbidden);

  // Revoked: the requested key is not allowed at all, or none of its values.
  for (const auto& c : read_case_table("cases/download/dl_r4_revoking_grants.json")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const auto allowed = c.at("allowed").get<ScopeMap>();
    const auto outcome = download(id, kScopesP1, kNow + 1, Caller{"p", "epoch-1", allowed});
    expect_refused(outcome, error_code::forbidden);
    ASSERT_TRUE(outcome.effective);
    EXPECT_EQ(outcome.effective->status, ScopeStatus::revoked);
  }
  // An empty request is revoked too (effective is empty).
  expect_refused(download_header(id, "{}", kNow + 1), error_code::forbidden);
  // Wildcard allowed values pass the requested ones through.
  expect_served(download(id, kScopesP1, kNow + 1, Caller{"p", "epoch-1", {{"project_id", {"*"}}}}),
                payload("resolver"));
}

// 0.22 level: §3.2 says "at most once per request" without a key word;
// upstream's download resolves once (design notes §3.7 step 4).
TEST_P(SegmentDownload, DL_R4_022_TheResolverRunsOncePerDownload) {
  record_spec("§5.5", "DL-R4-022");
  const std::string id =
      store().put(published_for(kScopesP1), payload("resolver"), kNow).segment_id;
  int calls = 0;
  CallbackScopeResolver throwing([&](const std::string&) -> std::optional<ScopeMap> {
    ++calls;
    throw std::runtime_error("authority unreachable");
  });
  expect_refused(download_with(throwing, id, scopes_header(kScopesP1), kNow + 1),
                 error_code::forbidden);
  EXPECT_EQ(calls, 1);
}

TEST_P(SegmentDownload, DL_R5_PublicationOfATableNoLongerServedIsNotFound) {
  record_spec("§5.5", "DL-R5");
  const std::string id =
      store().put(published_for(kScopesP1, "retired"), payload("retired"), kNow).segment_id;
  expect_refused(download(id, kScopesP1, kNow + 1), error_code::not_found);
}

TEST_P(SegmentDownload, DL_R6_UndeclaredKeyOrWildcardRequestIsInvalidSubscription) {
  record_spec("§5.5", "DL-R6");
  // The resolver allows project_id, but docs does not declare it.
  const std::string docs =
      store().put(published_for(kScopesP1, "docs"), payload("docs p1"), kNow).segment_id;
  const auto undeclared = download(docs, kScopesP1, kNow + 1);
  ASSERT_NO_FATAL_FAILURE(expect_refused(undeclared, error_code::invalid_subscription));

  // A requested '*' passes a '*' grant into the digest; a publication under
  // that digest still refuses the wildcard request.
  const ScopeMap wildcard = {{"project_id", {"*"}}};
  const std::string star =
      store().put(published_for(wildcard), payload("star"), kNow).segment_id;
  expect_refused(download(star, wildcard, kNow + 1, Caller{"p", "epoch-1", wildcard}),
                 error_code::invalid_subscription);
}

// Reference level (docs/decisions.md, "error messages"): §5.5 names the
// code, not the message's words.
TEST_P(SegmentDownload, DL_R6_REF_TheRefusalNamesTheUndeclaredKey) {
  record_spec("§5.5", "DL-R6-REF");
  const std::string docs =
      store().put(published_for(kScopesP1, "docs"), payload("docs p1"), kNow).segment_id;
  const auto undeclared = download(docs, kScopesP1, kNow + 1);
  ASSERT_NO_FATAL_FAILURE(expect_refused(undeclared, error_code::invalid_subscription,
                                         DownloadStep::undeclared_scope_key));
  EXPECT_THAT(undeclared.error->message, ::testing::HasSubstr("project_id"));
}

TEST_P(SegmentDownload, DL_R7_MatchingIfNoneMatchIsNotModifiedOnlyAfterAuthorization) {
  record_spec("§5.5", "DL-R7");
  const std::string id = store().put(published_for(kScopesP1), payload("etag"), kNow).segment_id;
  // §5.5: every download re-authorizes, so a cached copy never bypasses it.
  expect_refused(download(id, kScopesP2, kNow + 1, {}, "\"" + id + "\""), error_code::forbidden);
}

// Reference level (D-IF-NONE-MATCH): §5.5 states the 304 without a key word
// and names no comparison; the reference's is RFC 9110's weak one.
TEST_P(SegmentDownload, DL_R7_REF_AMatchingEntityTagIsNotModifiedAfterEveryCheck) {
  record_spec("§5.5", "DL-R7-REF");
  const std::string id = store().put(published_for(kScopesP1), payload("etag"), kNow).segment_id;
  const std::string etag = "\"" + id + "\"";
  for (const auto& c : read_case_table("cases/download/dl_r7_if_none_match.json")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const std::string if_none_match =
        fill_placeholders(c.at("if_none_match").get<std::string>(), {{"id", id}, {"etag", etag}});
    const auto outcome = download(id, kScopesP1, kNow + 1, {}, if_none_match);
    if (c.at("outcome").get<std::string>() == "served") {
      expect_served(outcome, payload("etag"));
      continue;
    }
    ASSERT_EQ(c.at("outcome").get<std::string>(), "not_modified");
    EXPECT_EQ(outcome.http_status, 304);
    EXPECT_EQ(outcome.step, DownloadStep::not_modified) << download_step_name(outcome.step);
    EXPECT_FALSE(outcome.error);
    EXPECT_TRUE(outcome.bytes.empty());
    EXPECT_EQ(outcome.header("ETag"), etag);
    EXPECT_EQ(outcome.header("Cache-Control"), "private, max-age=0");
    EXPECT_FALSE(outcome.header("Content-Type"));
  }
  // A cached copy never bypasses expiry either.
  expect_refused(download(id, kScopesP1, kNow + kTtl, {}, etag), error_code::segment_expired,
                 DownloadStep::expired);
}

TEST_P(SegmentDownload, DL_R8_WrongScopesOnAnExpiredSegmentAreForbidden) {
  record_spec("§5.5", "DL-R8");
  // 0.21 answered segment_expired here; 0.22 checks the digest first.
  const std::string id = store().put(published_for(kScopesP1), payload("order"), kNow).segment_id;
  expect_refused(download(id, kScopesP2, kNow + kTtl + 1), error_code::forbidden);
  // An undeclared key the resolver does not allow is revoked before any
  // schema check: forbidden, not invalid_subscription.
  expect_refused(download(id, {{"project_id", {"p1"}}, {"unknown_key", {"x"}}}, kNow + 1),
                 error_code::forbidden);
}

TEST_P(SegmentDownload, DL_R10_AnEmptyLogEpochIsNeverInContext) {
  record_spec("§2.1", "DL-R10");
  // Rows from pre-epoch databases carry epoch ''; a live epoch never is.
  SegmentMetadata pre_epoch = published_for(kScopesP1);
  pre_epoch.log_epoch = "";
  const std::string id = store().put(pre_epoch, payload("pre-epoch"), kNow).segment_id;
  expect_refused(download(id, kScopesP1, kNow + 1, Caller{"p", ""}), error_code::not_found,
                 DownloadStep::not_in_context);
}

// Reference level (D-DOWNLOAD-STEPS): every outcome names the step of
// docs/download.md's table that decided it, one situation per step. A client
// sees only the status and the code, which the tests above pin.
TEST_P(SegmentDownload, DL_STEP_REF_EachOutcomeNamesTheStepThatDecidedIt) {
  record_spec("§5.5", "DL-STEP-REF");
  const std::string id = store().put(published_for(kScopesP1), payload("steps"), kNow).segment_id;
  const std::string retired =
      store().put(published_for(kScopesP1, "retired"), payload("retired"), kNow).segment_id;
  const std::string docs =
      store().put(published_for(kScopesP1, "docs"), payload("docs"), kNow).segment_id;
  CallbackScopeResolver outage([](const std::string&) { return std::optional<ScopeMap>{}; });
  const struct {
    const char* situation;
    SegmentDownloadOutcome outcome;
    DownloadStep step;
  } cases[] = {
      {"served", download(id, kScopesP1, kNow + 1), DownloadStep::served},
      {"If-None-Match names the ETag", download(id, kScopesP1, kNow + 1, {}, "\"" + id + "\""),
       DownloadStep::not_modified},
      {"an id the store does not hold", download("sha256:" + std::string(64, '0'), kScopesP1, kNow),
       DownloadStep::unknown_segment},
      {"another partition", download(id, kScopesP1, kNow + 1, Caller{"p1"}),
       DownloadStep::not_in_context},
      {"a header that is not JSON", download_header(id, "not json", kNow + 1),
       DownloadStep::invalid_scopes_header},
      {"the resolver reports an outage",
       download_with(outage, id, scopes_header(kScopesP1), kNow + 1), DownloadStep::scopes_not_held},
      {"other scopes", download(id, kScopesP2, kNow + 1), DownloadStep::scope_digest_mismatch},
      {"past the TTL", download(id, kScopesP1, kNow + 25 * kHour), DownloadStep::expired},
      {"a table no longer served", download(retired, kScopesP1, kNow + 1),
       DownloadStep::table_not_served},
      {"a key the table does not declare", download(docs, kScopesP1, kNow + 1),
       DownloadStep::undeclared_scope_key},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(download_step_name(c.outcome.step), download_step_name(c.step)) << c.situation;
  }
}

}  // namespace
}  // namespace ssp::harness
