// The points at which a segment put waits for the harness, named so that a
// fault plan can pick one (docs/faults.md): the content hasher's call,
// "hasher#<k>", where the candidate takes an injected hasher
// (Capability::injected_hasher), and each put hook point,
// "put-hook:<name>" (the driver protocol's names: before_begin, after_read,
// before_commit), where it declares hooks (Capability::hooks). Every one of
// them comes before the put commits.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/faults/fault_point_trail.hpp"
#include "harness/gates/capability_gate.hpp"
#include "ssp/segments/segment_store_options.hpp"

namespace ssp::harness {

class SegmentPutPoints final : public FaultPointSet {
 public:
  // `options` with the hasher (sha256_content_address behind the trail) and the
  // put hook passing through this object first, each given its grant;
  // without a grant that part stays as it is. The returned options share
  // this object's trail.
  SegmentStoreOptions instrument(SegmentStoreOptions options,
                                 const std::optional<CapabilityGrant>& hasher,
                                 const std::optional<CapabilityGrant>& hooks) const;
};

}  // namespace ssp::harness
