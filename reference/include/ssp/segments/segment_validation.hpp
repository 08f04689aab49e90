// Input checks shared by every backend, run before a store reads or writes.
#pragma once

#include <cstdint>

#include "ssp/segments/segment_types.hpp"

namespace ssp {

// The JS safe-integer bound of the SSP2 conventions: |v| ≤ 2^53 − 1.
inline constexpr std::int64_t kMaxSafeInteger = (std::int64_t{1} << 53) - 1;

// Default segment lifetime (24 h, SPEC §5.1).
inline constexpr std::int64_t kDefaultSegmentTtlMs = 86'400'000;

bool is_safe_integer(std::int64_t value);

// Throws InvalidArgument naming the field when schemaVersion, asOfCommitSeq or
// rowCount is outside ±(2^53−1), or when a string field is not well-formed
// UTF-8 or contains U+0000 (PostgreSQL text cannot hold it; refusing it on
// every backend keeps them equivalent).
void validate_metadata(const SegmentMetadata& metadata);

// Throws InvalidArgument unless 0 < ttl_ms ≤ 2^53 − 1 (design note Q8: refuse).
void validate_ttl(std::int64_t ttl_ms);

// Throws InvalidArgument unless now_ms is a safe integer.
void validate_now(std::int64_t now_ms);

}  // namespace ssp
