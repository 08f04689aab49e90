// The push vocabulary's own functions: the hook points' names, the refusals' texts.
#include <utility>

#include "ssp/push/command_types.hpp"
#include "ssp/push/push_types.hpp"

namespace ssp::push {

std::string_view push_hook_point_name(PushHookPoint point) {
  switch (point) {
    case PushHookPoint::after_optimistic_miss: return "after_optimistic_miss";
    case PushHookPoint::after_begin: return "after_begin";
    case PushHookPoint::after_lock: return "after_lock";
    case PushHookPoint::after_locked_recheck: return "after_locked_recheck";
    case PushHookPoint::after_operations: return "after_operations";
    case PushHookPoint::before_append_commit: return "before_append_commit";
    case PushHookPoint::before_commit: return "before_commit";
  }
  return "unknown";
}

PushRequestError::PushRequestError(std::string code, const std::string& message)
    : SspError(message), code_(std::move(code)) {}

OperationError::OperationError(std::string code, const std::string& message)
    : SspError(message), code_(std::move(code)) {}

}  // namespace ssp::push
