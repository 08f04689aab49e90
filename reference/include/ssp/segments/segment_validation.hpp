// Input checks shared by every backend, run before a store reads or writes.
#pragma once

#include <cstdint>

#include "ssp/segments/segment_store_options.hpp"
#include "ssp/segments/segment_types.hpp"
#include "ssp/values/safe_integer.hpp"

namespace ssp {

// Throws InvalidArgument naming the field when schemaVersion, asOfCommitSeq or
// rowCount is outside ±(2^53−1), or when a string field is not well-formed
// UTF-8 or contains U+0000 (PostgreSQL text cannot hold it; refusing it on
// every backend keeps them equivalent).
void validate_metadata(const SegmentMetadata& metadata);

// The same checks of a find key's fields, naming the field ("find key: …").
void validate_find_key(const SegmentFindKey& key);

// Throws InvalidArgument unless 0 < ttl_ms ≤ 2^53 − 1 (design note Q8: refuse).
void validate_ttl(std::int64_t ttl_ms);

// Throws InvalidArgument unless now_ms is a safe integer.
void validate_now(std::int64_t now_ms);

// `options` after validate_ttl, with the content address of §5.1 for an unset
// hasher; backends call it before opening anything.
SegmentStoreOptions validated(SegmentStoreOptions options);

}  // namespace ssp
