// The points at which a push waits for the harness, named so that a fault
// plan can pick one (docs/faults.md): every callback the candidate makes
// during push.run or command.run, in call order. A row validator's call is
// "validate_row#<k>" (the k-th of the push, whatever its table), the whole-
// commit validator's "validate_commit#<k>", the notifier's "notify#<k>", a
// hook point's "hook:<name>" (push_hook_point_name) where the candidate
// declares hook points. These are points every candidate has: validators
// and the notifier are part of every push implementation (§6.8), so a
// candidate without hooks is still killed inside its transaction.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/faults/fault_point_trail.hpp"
#include "harness/gates/capability_gate.hpp"
#include "ssp/push/push_types.hpp"

namespace ssp::harness {

class PushCallbackPoints final : public FaultPointSet {
 public:
  // `options` with every callback passing through this object first: a row
  // validator on each of `tables` (the one `options` has for the table still
  // decides, else it accepts), the commit validator (likewise), a notifier,
  // and, given the grant of Capability::push_hooks, a hook (replacing one
  // `options` had). Each records its point, then throws CandidateKilled when
  // the point is the one kill_at() named. The returned options share this
  // object's trail.
  push::PushOptions instrument(push::PushOptions options, const std::vector<std::string>& tables,
                               const std::optional<CapabilityGrant>& push_hooks) const;

  // `options` with only the hook passing through this object, given the
  // grant (else unchanged): a remote command's points, where the candidate
  // does not carry a command's validators and notifier
  // (Capability::command_callbacks).
  push::PushOptions instrument_hooks(push::PushOptions options,
                                     const std::optional<CapabilityGrant>& push_hooks) const;
};

// Whether a candidate has, by the time it reaches `point`, not yet committed
// the push: validators decide before the commit, and every hook point is
// before it (H0–H6); a notification follows it.
bool precedes_the_commit(const std::string& point);

}  // namespace ssp::harness
