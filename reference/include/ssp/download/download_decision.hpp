// The direct segment download decision (SSP2 §5.5 at 0.22): who may fetch a
// content address that may carry several publications. Re-authorizes on every
// call against the publications of the caller's partition and current epoch;
// never against the record's compatibility view (design notes §3.7).
#pragma once

#include "ssp/download/segment_download.hpp"
#include "ssp/scopes/scope_resolution.hpp"
#include "ssp/segments/segment_store.hpp"

namespace ssp {

// Decides one GET <mount>/segments/{id}, in this order (design notes §3.7,
// steps 1–7 and 9; docs/download.md has an example of each outcome):
//  1. malformed or unknown id → not_found;
//  2. no publication in (request.partition, request.log_epoch) → not_found,
//     before any scope or expiry check, so existence does not leak (an empty
//     epoch, which only pre-epoch rows carry, matches nothing);
//  3. header over kMaxScopesHeaderBytes, not JSON, not an object, or a value
//     that is not a list of strings → invalid_request;
//  4. resolver throws, reports an outage, or compute_effective revokes → forbidden;
//  5. no in-context publication carries scope_digest(effective) → forbidden
//     (also when the caller's publication was pruned while another digest
//     stays live: design-notes Q1, pinned by test R24);
//  6. none of those is live at now_ms → segment_expired (retryable);
//  7. no live one whose table is served and declares every requested key,
//     with no '*' value → not_found if none of their tables is served, else
//     invalid_subscription;
//  9. otherwise the newest qualifying publication: 200 with the bytes, or 304
//     when If-None-Match names its ETag (only after full authorization).
// Calls store.get at most once and the resolver at most once. Throws only
// what the store throws (StorageError); bad input is an outcome, never a throw.
SegmentDownloadOutcome authorize_segment_download(SegmentStore& store, ScopeResolver& resolver,
                                                  const ServedTables& served,
                                                  const SegmentDownloadRequest& request);

}  // namespace ssp
