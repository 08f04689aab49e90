#include "ssp/errors/errors.hpp"

namespace ssp {

SegmentCollision::SegmentCollision(const std::string& store_name, const std::string& segment_id)
    : SspError(store_name + ": content-address collision at " + segment_id + " (§5.1)"),
      segment_id_(segment_id) {}

}  // namespace ssp
