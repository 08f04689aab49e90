#include "ssp/segment_store_options.hpp"

namespace ssp {

std::string_view put_hook_point_name(PutHookPoint point) {
  switch (point) {
    case PutHookPoint::before_begin: return "before_begin";
    case PutHookPoint::after_read: return "after_read";
    case PutHookPoint::before_commit: return "before_commit";
  }
  return "unknown";
}

SegmentStoreOptions validated(SegmentStoreOptions options) {
  validate_ttl(options.ttl_ms);
  return options;
}

}  // namespace ssp
