#include "download_oracle.hpp"

#include <rapidcheck.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "harness/candidate/candidate.hpp"
#include "ssp/errors/protocol_error.hpp"
#include "ssp/scopes/scope_resolution.hpp"

namespace ssp::properties {

DownloadExpectation download_oracle(const std::optional<StoredSegment>& entry,
                                    const DownloadDraw& d, const ServedTables& served) {
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
  // The candidate's own digest (R50's golden vectors pin it): the oracle then
  // checks the decision's consistency with the candidate's scope rules, not
  // with the reference's.
  const std::string digest = harness::current_candidate().scope().digest(effective).scope_digest;

  std::vector<SegmentPublication> live;
  bool digest_seen = false;
  for (const auto& p : in_context) {
    if (p.metadata.scope_digest != digest) continue;
    digest_seen = true;
    if (p.expires_at_ms > d.now_ms) live.push_back(p);
  }
  if (!digest_seen) return {error_code::forbidden, {}};
  if (live.empty()) return {error_code::segment_expired, {}};

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

SegmentDownloadOutcome check_download(SegmentStore& store, const ServedTables& served,
                                      const DownloadDraw& d,
                                      const std::optional<StoredSegment>& entry) {
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
  request.scopes_header =
      d.requested ? harness::current_candidate().scope().digest(*d.requested).canonical_json
                  : d.bad_header;
  request.now_ms = d.now_ms;

  const DownloadExpectation expected = download_oracle(entry, d, served);
  SegmentDownloadOutcome outcome =
      harness::current_candidate().download().authorize(store, resolver, served, request);
  if (expected.code) {
    RC_ASSERT(outcome.error.has_value());
    RC_ASSERT(std::string(outcome.error->code()) == std::string(*expected.code));
    RC_ASSERT(outcome.http_status == outcome.error->entry.http_status);
    RC_ASSERT(!outcome.record.has_value());
  } else {
    RC_ASSERT(!outcome.error.has_value());
    RC_ASSERT(outcome.http_status == 200);
    RC_ASSERT(outcome.bytes == entry->bytes);
    RC_ASSERT(outcome.record.has_value());
    RC_ASSERT(outcome.record->publications == std::vector<SegmentPublication>{*expected.chosen});
    RC_ASSERT(outcome.record->metadata == expected.chosen->metadata);
  }
  return outcome;
}

}  // namespace ssp::properties
