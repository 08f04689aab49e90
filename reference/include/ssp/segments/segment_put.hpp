// The decision every backend's put makes once it holds the write lock for a
// segment id. Backends only read the existing state and write the result.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ssp/segments/segment_types.hpp"

namespace ssp {

// Checks the arguments of put before anything is read (validate_metadata,
// validate_now). Throws InvalidArgument.
void validate_put(const SegmentMetadata& metadata, std::int64_t now_ms);

// The record put must write: SegmentCollision (naming `store_name` and the id)
// when `existing` is present and its stored bytes differ from the incoming
// ones, expired entries included (§5.1); otherwise merge_segment_record.
SegmentRecord decide_put(const std::optional<SegmentRecord>& existing, bool stored_bytes_equal,
                         std::string_view store_name, const SegmentMetadata& metadata,
                         const std::string& segment_id, std::int64_t byte_length,
                         std::int64_t now_ms, std::int64_t ttl_ms);

}  // namespace ssp
