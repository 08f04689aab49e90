// The hook points one push.run or command.run passed (docs/driver-protocol.md,
// "hook"), checked as they come and against the answer: a driver that skips a
// point, or passes them out of order, breaks the protocol.
#pragma once

#include <string>
#include <vector>

#include "ssp/push/push_types.hpp"

namespace ssp::harness {

class HookTrail {
 public:
  // `method` names the call in the DriverError a violation throws.
  explicit HookTrail(std::string method) : method_(std::move(method)) {}

  // Throws DriverError when `point` does not come after every point passed.
  void pass(push::PushHookPoint point);

  // Throws DriverError unless an applied answer passed every point and a
  // rejection minted by this call (not replayed, not an unreadable stored
  // result) passed H0–H3 and H6.
  void check(const push::PushAnswer& answer) const;

 private:
  [[noreturn]] void violation(const std::string& problem) const;

  std::string method_;
  std::vector<push::PushHookPoint> passed_;
};

}  // namespace ssp::harness
