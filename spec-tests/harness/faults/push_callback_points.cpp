#include "harness/faults/push_callback_points.hpp"

#include "harness/gates/granted_options.hpp"

namespace ssp::harness {

push::PushOptions PushCallbackPoints::instrument(
    push::PushOptions options, const std::vector<std::string>& tables,
    const std::optional<CapabilityGrant>& push_hooks) const {
  const std::shared_ptr<FaultPointTrail> trail = this->trail();
  for (const std::string& table : tables) {
    push::RowValidator own = options.row_validators[table];
    options.row_validators[table] = [trail, own](const push::RowValidation& op) {
      trail->pass("validate_row", true);
      if (own) own(op);
    };
  }
  options.commit_validator = [trail, own = options.commit_validator](
                                 const push::CommitValidation& input) {
    trail->pass("validate_commit", true);
    if (own) own(input);
  };
  options.notify = [trail, own = options.notify](const push::CommitNotification& notification) {
    trail->pass("notify", true);
    if (own) own(notification);
  };
  return instrument_hooks(std::move(options), push_hooks);
}

push::PushOptions PushCallbackPoints::instrument_hooks(
    push::PushOptions options, const std::optional<CapabilityGrant>& push_hooks) const {
  if (push_hooks) {
    install_push_hook(*push_hooks, options, [trail = this->trail()](push::PushHookPoint point) {
      trail->pass("hook:" + std::string(push::push_hook_point_name(point)), false);
    });
  }
  return options;
}

bool precedes_the_commit(const std::string& point) { return point.rfind("notify#", 0) != 0; }

}  // namespace ssp::harness
