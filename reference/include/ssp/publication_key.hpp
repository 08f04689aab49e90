// Publication identity (0.22): two publications with equal keys are the same grant.
#pragma once

#include <string>

#include "ssp/segment_types.hpp"

namespace ssp {

// JSON text of [partition, logEpoch, table, schemaVersion, mediaType,
// scopeDigest, asOfCommitSeq, rowCursor, nextRowCursor] as JSON.stringify
// writes it, e.g. ["p","epoch-1","tasks",1,"sqlite","digest-a",42,null,null].
// rowCount, byteLength and the times are deliberately not part of it. Stored as
// pub_key by SQL backends, byte-identical to upstream (DECISION D13).
std::string publication_key(const SegmentMetadata& metadata);

}  // namespace ssp
