#include "harness/faults/segment_put_points.hpp"

#include "harness/gates/granted_options.hpp"
#include "harness/util/content_address.hpp"
#include "wire/hook_points.hpp"

namespace ssp::harness {

SegmentStoreOptions SegmentPutPoints::instrument(SegmentStoreOptions options,
                                                 const std::optional<CapabilityGrant>& hasher,
                                                 const std::optional<CapabilityGrant>& hooks) const {
  const std::shared_ptr<FaultPointTrail> trail = this->trail();
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

}  // namespace ssp::harness
