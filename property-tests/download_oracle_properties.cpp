// Design notes §5 invariant 15, the download oracle: over random store states
// (puts of two payloads under random partitions, epochs, tables, scopes, pins
// and times, with a TTL short enough that downloads straddle it) the §5.5
// decision equals a direct reading of the rule over get()'s publications:
//   not_found iff the id is absent or has no publication in (partition, epoch);
//   else invalid_request for a bad header;
//   else forbidden iff the resolver fails or revokes, or no in-context
//        publication carries digest(effective);
//   else segment_expired iff none of those is live;
//   else table / key validation;
//   else success with the newest qualifying publication.
// Runs on every backend the candidate supports (PostgreSQL under with-postgres).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>

#include "harness/candidate.hpp"
#include "harness/spec.hpp"
#include "harness/test_database.hpp"
#include "ssp/scope_digest.hpp"
#include "ssp/segment_download.hpp"
#include "ssp/segment_id.hpp"

namespace ssp::harness {
namespace {

constexpr std::int64_t kShortTtl = 1000;

const std::vector<ScopeMap> kRequestable = {
    {{"project_id", {"a"}}},
    {{"project_id", {"b"}}},
    {{"org_id", {"o"}}},
    {{"project_id", {"a"}}, {"org_id", {"o"}}},
    {{"project_id", {"*"}}},
    {{"project_id", {"a", "b"}}},
};
const std::vector<ScopeMap> kAllowable = {
    {{"project_id", {"*"}}, {"org_id", {"o"}}},
    {{"project_id", {"a"}}},
    {{"project_id", {"a", "b"}}, {"org_id", {"x"}}},
    {},
};
const std::vector<std::string> kBadHeaders = {"nope", R"({"project_id":"a"})", "[]",
                                              R"({"project_id":[1]})", ""};

ServedTables served_tables() {
  ServedTables served;  // "gone" is published but no longer served
  served.declared_variables["tasks"] = {"project_id", "org_id"};
  served.declared_variables["docs"] = {"org_id"};
  return served;
}

enum class ResolverMode { fixed, throws, outage };

struct Download {
  std::string segment_id;
  std::string partition;
  std::string log_epoch;
  std::optional<ScopeMap> requested;  // nothing: the header is `bad_header`
  std::string bad_header;
  ResolverMode mode = ResolverMode::fixed;
  ScopeMap allowed;
  std::int64_t now_ms = 0;
};

struct Expected {
  std::optional<std::string_view> code;   // nothing: 200
  std::optional<SegmentPublication> chosen;
};

// The rule, read directly off the publications; shares nothing with the
// reference but the digest function (pinned by golden values elsewhere).
Expected oracle(const std::optional<StoredSegment>& entry, const Download& d) {
  if (!entry) return {error_code::not_found, {}};
  std::vector<SegmentPublication> in_context;
  for (const auto& p : entry->record.publications) {
    if (p.metadata.partition == d.partition && p.metadata.log_epoch == d.log_epoch) {
      in_context.push_back(p);
    }
  }
  if (in_context.empty()) return {error_code::not_found, {}};
  if (!d.requested) return {error_code::invalid_request, {}};
  if (d.mode != ResolverMode::fixed) return {error_code::forbidden, {}};

  ScopeMap effective;
  for (const auto& [key, values] : *d.requested) {
    if (!d.allowed.contains(key)) return {error_code::forbidden, {}};
    const auto& grant = d.allowed.at(key);
    const bool any = std::count(grant.begin(), grant.end(), "*") > 0;
    for (const auto& v : values) {
      if (any || std::count(grant.begin(), grant.end(), v) > 0) effective[key].push_back(v);
    }
    if (!effective.contains(key)) return {error_code::forbidden, {}};
  }
  if (effective.empty()) return {error_code::forbidden, {}};
  const std::string digest = scope_digest(effective);

  std::vector<SegmentPublication> live;
  bool digest_seen = false;
  for (const auto& p : in_context) {
    if (p.metadata.scope_digest != digest) continue;
    digest_seen = true;
    if (p.expires_at_ms > d.now_ms) live.push_back(p);
  }
  if (!digest_seen) return {error_code::forbidden, {}};
  if (live.empty()) return {error_code::segment_expired, {}};

  const ServedTables served = served_tables();
  std::optional<SegmentPublication> newest;
  bool any_served = false;
  for (const auto& p : live) {
    const auto table = served.declared_variables.find(p.metadata.table);
    if (table == served.declared_variables.end()) continue;
    any_served = true;
    bool fits = true;
    for (const auto& [key, values] : *d.requested) {
      fits = fits && table->second.contains(key) &&
             std::find(values.begin(), values.end(), "*") == values.end();
    }
    if (fits) newest = p;
  }
  if (!newest) return {any_served ? error_code::invalid_subscription : error_code::not_found, {}};
  return {std::nullopt, newest};
}

// A value drawn uniformly from [min, max): inRange alone scales with the
// test-case size and would keep early cases near `min`.
template <typename T>
T uniform(T min, T max) {
  return *rc::gen::resize(100, rc::gen::inRange<T>(min, max));
}

Bytes bytes_of(const std::string& text) { return Bytes(text.begin(), text.end()); }

void check_download_oracle(Backend backend) {
  if (const auto reason = backend_unavailable(backend)) {
    if (postgres_required()) FAIL() << "SSP_REQUIRE_PG=1 but " << *reason;
    GTEST_SKIP() << *reason;
  }
  // How often each outcome was drawn, printed so a reader sees the coverage.
  const auto seen = std::make_shared<std::map<std::string, int>>();
  const bool ok = rc::check("the download decision equals the invariant-15 oracle", [backend, seen] {
    const auto database = create_test_database(backend);
    SegmentStoreOptions options;
    options.ttl_ms = kShortTtl;
    const auto store = current_candidate().open_segment_store(
        database ? database->location() : DatabaseLocation{}, options);

    const std::vector<Bytes> payloads = {bytes_of("alpha"), bytes_of("beta")};
    const int puts = uniform(1, 9);
    for (int i = 0; i < puts; ++i) {
      SegmentMetadata m;
      m.partition = *rc::gen::element<std::string>("p", "q");
      m.log_epoch = *rc::gen::element<std::string>("e1", "e2");
      m.table = *rc::gen::element<std::string>("tasks", "docs", "gone");
      m.schema_version = 1;
      m.media_type = MediaType::sqlite;
      m.scope_digest = scope_digest(kRequestable[uniform<std::size_t>(0, 6)]);
      m.as_of_commit_seq = uniform(1, 4);
      m.row_count = 1;
      store->put(m, payloads[uniform(0, 2)], uniform<std::int64_t>(0, 3000));
    }

    const std::vector<std::string> ids = {
        sha256_segment_id(payloads[0]), sha256_segment_id(payloads[1]),
        sha256_segment_id(bytes_of("never put")), "not-an-id"};
    for (int attempt = 0; attempt < 6; ++attempt) {
      Download d;
      d.segment_id = ids[uniform(0, 8) < 6 ? uniform(0, 2) : uniform(2, 4)];
      d.partition = *rc::gen::element<std::string>("p", "q");
      d.log_epoch = *rc::gen::element<std::string>("e1", "e2");
      d.requested = *rc::gen::elementOf(kRequestable);
      d.allowed = *rc::gen::elementOf(kAllowable);
      d.now_ms = uniform<std::int64_t>(0, 4500);
      // Mostly aim at a stored publication (its context, its scopes, near its
      // expiry) so every outcome, success included, is drawn often.
      const auto stored = store->get(d.segment_id);
      if (stored && uniform(0, 4) != 0) {
        const auto& target = *rc::gen::elementOf(stored->record.publications);
        d.partition = target.metadata.partition;
        d.log_epoch = target.metadata.log_epoch;
        for (const auto& scopes : kRequestable) {
          if (scope_digest(scopes) == target.metadata.scope_digest) d.requested = scopes;
        }
        d.allowed = kAllowable.front();
        // Boundaries often: live means expires_at_ms > now.
        d.now_ms = target.expires_at_ms + *rc::gen::element<std::int64_t>(
                                              -1, 0, 1, uniform<std::int64_t>(-600, 200));
      }
      if (uniform(0, 10) == 0) {
        d.requested.reset();
        d.bad_header = *rc::gen::elementOf(kBadHeaders);
      }
      if (uniform(0, 5) == 0) {
        d.allowed = *rc::gen::elementOf(kAllowable);
      }
      d.mode = *rc::gen::element(ResolverMode::fixed, ResolverMode::fixed, ResolverMode::fixed,
                                 ResolverMode::fixed, ResolverMode::throws, ResolverMode::outage);

      CallbackScopeResolver resolver([&d](const std::string&) -> std::optional<ScopeMap> {
        if (d.mode == ResolverMode::throws) throw std::runtime_error("resolver failed");
        if (d.mode == ResolverMode::outage) return std::nullopt;
        return d.allowed;
      });
      SegmentDownloadRequest request;
      request.segment_id = d.segment_id;
      request.partition = d.partition;
      request.log_epoch = d.log_epoch;
      request.actor_id = "actor";
      request.scopes_header = d.requested ? canonical_scope_json(*d.requested) : d.bad_header;
      request.now_ms = d.now_ms;

      const Expected expected = oracle(stored, d);
      const SegmentDownloadOutcome outcome =
          authorize_segment_download(*store, resolver, served_tables(), request);
      ++(*seen)[std::string(download_step_name(outcome.step))];
      if (expected.code) {
        RC_ASSERT(outcome.error.has_value());
        RC_ASSERT(std::string(outcome.error->code()) == std::string(*expected.code));
        RC_ASSERT(outcome.http_status == outcome.error->entry.http_status);
        RC_ASSERT(!outcome.record.has_value());
      } else {
        RC_ASSERT(!outcome.error.has_value());
        RC_ASSERT(outcome.http_status == 200);
        RC_ASSERT(outcome.bytes == stored->bytes);
        RC_ASSERT(outcome.record->publications ==
                  std::vector<SegmentPublication>{*expected.chosen});
        RC_ASSERT(outcome.record->metadata == expected.chosen->metadata);
      }
    }
  });
  EXPECT_TRUE(ok);
  std::string coverage;
  for (const auto& [step, count] : *seen) coverage += " " + step + "=" + std::to_string(count);
  std::cout << "outcomes drawn:" << coverage << "\n";
}

TEST(DownloadOracle, DL_P1_MemoryStore) {
  record_spec("§5.5", "DL-P1");
  check_download_oracle(Backend::memory);
}
TEST(DownloadOracle, DL_P1_SqliteStore) {
  record_spec("§5.5", "DL-P1");
  check_download_oracle(Backend::sqlite);
}
TEST(DownloadOracle, DL_P1_PostgresStore) {
  record_spec("§5.5", "DL-P1");
  check_download_oracle(Backend::postgres);
}

}  // namespace
}  // namespace ssp::harness
