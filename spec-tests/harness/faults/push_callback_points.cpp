#include "harness/faults/push_callback_points.hpp"

#include <map>

#include "harness/errors/candidate_killed.hpp"
#include "harness/gates/granted_options.hpp"

namespace ssp::harness {

struct PushCallbackPoints::State {
  std::vector<std::string> reached;
  std::map<std::string, int> counts;  // calls per callback, for the ordinal
  std::optional<std::string> kill_at;

  // Records the point of one call of `callback` (its ordinal appended when
  // `counted`), and kills there when it is the target.
  void pass(const std::string& callback, bool counted) {
    const std::string point =
        counted ? callback + "#" + std::to_string(++counts[callback]) : callback;
    reached.push_back(point);
    if (kill_at && *kill_at == point) throw CandidateKilled(point);
  }
};

PushCallbackPoints::PushCallbackPoints() : state_(std::make_shared<State>()) {}

push::PushOptions PushCallbackPoints::instrument(
    push::PushOptions options, const std::vector<std::string>& tables,
    const std::optional<CapabilityGrant>& push_hooks) const {
  const std::shared_ptr<State> state = state_;
  for (const std::string& table : tables) {
    push::RowValidator own = options.row_validators[table];
    options.row_validators[table] = [state, own](const push::RowValidation& op) {
      state->pass("validate_row", true);
      if (own) own(op);
    };
  }
  options.commit_validator = [state, own = options.commit_validator](
                                 const push::CommitValidation& input) {
    state->pass("validate_commit", true);
    if (own) own(input);
  };
  options.notify = [state, own = options.notify](const push::CommitNotification& notification) {
    state->pass("notify", true);
    if (own) own(notification);
  };
  if (push_hooks) {
    install_push_hook(*push_hooks, options, [state](push::PushHookPoint point) {
      state->pass("hook:" + std::string(push::push_hook_point_name(point)), false);
    });
  }
  return options;
}

void PushCallbackPoints::kill_at(std::optional<std::string> point) {
  state_->kill_at = std::move(point);
}

const std::vector<std::string>& PushCallbackPoints::reached() const { return state_->reached; }

bool precedes_the_commit(const std::string& point) { return point.rfind("notify#", 0) != 0; }

}  // namespace ssp::harness
