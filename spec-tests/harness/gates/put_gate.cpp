#include "harness/gates/put_gate.hpp"

namespace ssp::harness {

PutGate::PutGate(const CapabilityGrant& hooks, PutHookPoint point, bool parks)
    : point_(point), released_(!parks) {
  hooks.require(Capability::hooks);
}

std::function<void(PutHookPoint)> PutGate::hook() {
  return [this](PutHookPoint point) {
    if (point != point_) return;
    std::unique_lock lock(mutex_);
    reached_ = true;
    changed_.notify_all();
    // Watchdog only: a test that never releases fails in wait_until_reached
    // or its join, and the put goes on rather than hanging the suite.
    changed_.wait_for(lock, kWatchdog, [this] { return released_; });
  };
}

bool PutGate::wait_until_reached() {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, kWatchdog, [this] { return reached_ || given_up_; });
  return reached_;
}

void PutGate::give_up() {
  std::lock_guard lock(mutex_);
  given_up_ = true;
  changed_.notify_all();
}

void PutGate::release() {
  std::lock_guard lock(mutex_);
  released_ = true;
  changed_.notify_all();
}

}  // namespace ssp::harness
