// The 0.22 merge of a put into an existing record (SSP2 §5.1, §5.5).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ssp/segments/segment_types.hpp"

namespace ssp {

// Merges a put of `metadata` at `now_ms` into `existing` (absent for a new
// content address). The caller has already proven the bytes identical.
//
//  1. Prune-on-put: publications with expires_at_ms <= now_ms are dropped
//     (DECISIONS D1, D2), including an expired one under the incoming key.
//  2. A surviving publication with the incoming publication_key is updated in
//     place: metadata and byte length from the put, created = min(old, now),
//     expires = max(old, now + ttl). Otherwise a fresh publication
//     {created now, expires now + ttl} is appended at the end.
//  3. No other publication changes: a put never extends another grant.
//  4. Top level = incoming metadata (latest publisher); scope_digests = incoming
//     digest, then the other surviving digests ascending (D4); record times are
//     the envelope min(created, now) / max(expires, now + ttl) (D3-A).
SegmentRecord merge_segment_record(const std::optional<SegmentRecord>& existing,
                                   const SegmentMetadata& metadata,
                                   const std::string& segment_id,
                                   std::int64_t byte_length, std::int64_t now_ms,
                                   std::int64_t ttl_ms);

}  // namespace ssp
