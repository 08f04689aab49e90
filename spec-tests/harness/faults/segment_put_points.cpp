#include "harness/faults/segment_put_points.hpp"

#include "harness/gates/granted_options.hpp"
#include "harness/util/content_address.hpp"
#include "wire/hook_points.hpp"

namespace ssp::harness {

SegmentPutPoints::SegmentPutPoints() : trail_(std::make_shared<FaultPointTrail>()) {}

SegmentStoreOptions SegmentPutPoints::instrument(SegmentStoreOptions options,
                                                 const std::optional<CapabilityGrant>& hasher,
                                                 const std::optional<CapabilityGrant>& hooks) const {
  const std::shared_ptr<FaultPointTrail> trail = trail_;
  if (hasher) {
    inject_hasher(*hasher, options, [trail](std::span<const std::uint8_t> bytes) {
      trail->pass("hasher", true);
      return sha256_content_address(bytes);
    });
  }
  if (hooks) {
    install_put_hook(*hooks, options, [trail](PutHookPoint point) {
      trail->pass("put-hook:" + std::string(wire::put_hook_point_name(point)), false);
    });
  }
  return options;
}

void SegmentPutPoints::kill_at(std::optional<std::string> point) {
  trail_->kill_at(std::move(point));
}

const std::vector<std::string>& SegmentPutPoints::reached() const { return trail_->reached(); }

}  // namespace ssp::harness
