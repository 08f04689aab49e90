#include "harness/driver/push/push_hook_trail.hpp"

#include <algorithm>

#include "harness/errors/driver_error.hpp"
#include "ssp/storage/push_result.hpp"

namespace ssp::harness {
namespace {

using push::PushHookPoint;

bool is_cache_miss(const push::PushAnswer& answer) {
  return answer.results.size() == 1 &&
         answer.results[0].code == push::IdempotencyCacheMiss::code();
}

}  // namespace

void HookTrail::pass(PushHookPoint point) {
  if (!passed_.empty() && point <= passed_.back()) {
    violation("hook point " + std::string(push::push_hook_point_name(point)) + " after " +
              std::string(push::push_hook_point_name(passed_.back())));
  }
  passed_.push_back(point);
}

void HookTrail::check(const push::PushAnswer& answer) const {
  std::vector<PushHookPoint> required;
  if (answer.status == push::PushAnswerStatus::applied) {
    for (int i = 0; i <= static_cast<int>(PushHookPoint::before_commit); ++i) {
      required.push_back(static_cast<PushHookPoint>(i));
    }
  } else if (answer.status == push::PushAnswerStatus::rejected && !answer.replayed &&
             !is_cache_miss(answer)) {
    required = {PushHookPoint::after_optimistic_miss, PushHookPoint::after_begin,
                PushHookPoint::after_lock, PushHookPoint::after_locked_recheck,
                PushHookPoint::before_commit};
  }
  for (const PushHookPoint point : required) {
    if (std::find(passed_.begin(), passed_.end(), point) == passed_.end()) {
      violation("a push answered " +
                std::string(answer.status == push::PushAnswerStatus::applied ? "applied"
                                                                             : "rejected") +
                " without passing hook point " + std::string(push::push_hook_point_name(point)));
    }
  }
}

void HookTrail::violation(const std::string& problem) const {
  throw DriverError(method_, "protocol violation: " + problem);
}

}  // namespace ssp::harness
