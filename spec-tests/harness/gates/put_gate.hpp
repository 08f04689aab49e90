// Orders concurrent puts deterministically: a PutGate parks the put that
// passes its hook point until the test releases it. Waiting is bounded by a
// watchdog that turns a hang into a test failure; it never orders events.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>

#include "harness/gates/capability_gate.hpp"
#include "harness/util/watchdog.hpp"
#include "ssp/segments/segment_store_options.hpp"

namespace ssp::harness {

class PutGate {
 public:
  // Parks at `point` when `parks` is true; otherwise only records the
  // arrival. `hooks` is the grant of Capability::hooks: a test without one
  // skipped before it could build a gate.
  PutGate(const CapabilityGrant& hooks, PutHookPoint point, bool parks = true);

  // The hook, for install_put_hook (granted_options.hpp) or to call from a
  // hook of the test's own. The gate must outlive every store it is in.
  std::function<void(PutHookPoint)> hook();

  // Blocks until a put has reached the point; false when the watchdog fired
  // or the wait was given up.
  [[nodiscard]] bool wait_until_reached();
  // Ends a pending or later wait_until_reached at once: the put it waits for
  // has ended, so it will never arrive if it has not (a candidate that threw,
  // or that has no hook points). Without this the wait lasts the watchdog.
  void give_up();
  // Lets a parked put continue (and every later one pass).
  void release();

 private:
  const PutHookPoint point_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool reached_ = false;
  bool given_up_ = false;
  bool released_;
};

}  // namespace ssp::harness
