#include "ssp/segments/segment_id.hpp"
#include "ssp/segments/segment_store_options.hpp"
#include "ssp/segments/segment_validation.hpp"

namespace ssp {

SegmentStoreOptions validated(SegmentStoreOptions options) {
  validate_ttl(options.ttl_ms);
  if (!options.hasher) options.hasher = sha256_segment_id;
  return options;
}

}  // namespace ssp
