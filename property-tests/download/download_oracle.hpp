// The design notes' invariant 15 (segments.md §5), the download oracle, read
// directly off a record's publications, and a check that runs one drawn
// download through the candidate's §5.5 decision against it. Shared by the
// download property (DL-P1) and the model-based store property (PROP_MODEL).
//   not_found iff the id is absent or has no publication in (partition, epoch);
//   else invalid_request for a bad header;
//   else forbidden iff the resolver fails or revokes, or no in-context
//        publication carries digest(effective);
//   else segment_expired iff none of those is live;
//   else table / key validation;
//   else success with the newest qualifying publication.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ssp/download/segment_download.hpp"
#include "ssp/scopes/scope_map.hpp"
#include "ssp/segments/segment_store.hpp"

namespace ssp::properties {

// How the fake resolver answers: with `allowed`, by throwing, or with an outage.
enum class ResolverMode { fixed, throws, outage };

// One download: the URL's id, the caller's partition and current epoch, the
// X-Syncular-Scopes header, the resolver's answer and the server's clock.
struct DownloadDraw {
  std::string segment_id;
  std::string partition;
  std::string log_epoch;
  std::optional<ScopeMap> requested;  // the header is its canonical JSON; nothing: bad_header
  std::string bad_header;
  ResolverMode mode = ResolverMode::fixed;
  ScopeMap allowed;
  std::int64_t now_ms = 0;
};

// What invariant 15 says the download gets.
struct DownloadExpectation {
  std::optional<std::string_view> code;     // nothing: 200
  std::optional<SegmentPublication> chosen;  // 200: the publication served
};

// The oracle over `entry` (what get answers for the id, or what a model
// holds). Shares nothing with the reference: the one rule it does not model,
// the scope digest, it asks of the candidate's scope area (golden values pin
// that elsewhere, R50), so callers need Capability::scope as well as
// Capability::download (TRACE-8).
DownloadExpectation download_oracle(const std::optional<StoredSegment>& entry,
                                    const DownloadDraw& draw, const ServedTables& served);

// Runs `draw` through the candidate's download area on `store` (which the
// candidate opened), the header being the candidate's canonical text of the
// requested scopes, and asserts (RC_ASSERT) that the outcome is the oracle's
// over `entry`; a served download hands back entry's bytes. Returns the outcome for tallying.
SegmentDownloadOutcome check_download(SegmentStore& store, const ServedTables& served,
                                      const DownloadDraw& draw,
                                      const std::optional<StoredSegment>& entry);

}  // namespace ssp::properties
