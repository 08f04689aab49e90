#include "ssp/segments/segment_put.hpp"

#include "ssp/errors/errors.hpp"
#include "ssp/segments/segment_merge.hpp"
#include "ssp/segments/segment_validation.hpp"

namespace ssp {

void validate_put(const SegmentMetadata& metadata, std::int64_t now_ms) {
  validate_metadata(metadata);
  validate_now(now_ms);
}

SegmentRecord decide_put(const std::optional<SegmentRecord>& existing, bool stored_bytes_equal,
                         std::string_view store_name, const SegmentMetadata& metadata,
                         const std::string& segment_id, std::int64_t byte_length,
                         std::int64_t now_ms, std::int64_t ttl_ms) {
  if (existing && !stored_bytes_equal) {
    throw SegmentCollision(std::string(store_name), segment_id);
  }
  return merge_segment_record(existing, metadata, segment_id, byte_length, now_ms, ttl_ms);
}

}  // namespace ssp
