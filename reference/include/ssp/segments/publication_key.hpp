// Publication identity (0.22): two publications with equal keys are the same grant.
#pragma once

#include <cstddef>
#include <string>

#include "ssp/segments/segment_types.hpp"

namespace ssp {

// JSON text of [partition, logEpoch, table, schemaVersion, mediaType,
// scopeDigest, asOfCommitSeq, rowCursor, nextRowCursor] as JSON.stringify
// writes it, e.g. ["p","epoch-1","tasks",1,"sqlite","digest-a",42,null,null].
// rowCount, byteLength and the times are deliberately not part of it. Stored as
// pub_key by SQL backends, byte-identical to upstream (DECISION D13).
std::string publication_key(const SegmentMetadata& metadata);

// publication_key(a) == publication_key(b), without building either text:
// the text is injective over its nine fields, so this compares the fields.
bool same_publication_key(const SegmentMetadata& a, const SegmentMetadata& b);

// A hash of the nine fields: equal for any two metadata with the same key.
std::size_t publication_key_hash(const SegmentMetadata& metadata);

}  // namespace ssp
