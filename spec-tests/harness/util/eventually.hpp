// Waiting for a state another thread or connection reaches, such as a put
// blocked on a lock as the database reports it: the test polls what it can
// observe and orders its next step after it, never after a sleep.
#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace ssp::harness {

// Polls `condition` until it holds (true) or `watchdog` expires (false). The
// watchdog bounds a hang; it orders nothing.
inline bool eventually(const std::function<bool()>& condition, std::chrono::seconds watchdog) {
  const auto deadline = std::chrono::steady_clock::now() + watchdog;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a polling interval
  }
  return false;
}

}  // namespace ssp::harness
