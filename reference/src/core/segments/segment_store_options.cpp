#include "ssp/segments/segment_store_options.hpp"

namespace ssp {

SegmentStoreOptions validated(SegmentStoreOptions options) {
  validate_ttl(options.ttl_ms);
  return options;
}

}  // namespace ssp
