#include "timed_mutex.hpp"

namespace ssp {

void TimedMutex::lock() {
  std::unique_lock state(state_);
  released_.wait(state, [this] { return !held_; });
  held_ = true;
}

bool TimedMutex::try_lock_for(std::chrono::milliseconds wait) {
  std::unique_lock state(state_);
  if (!released_.wait_for(state, wait, [this] { return !held_; })) return false;
  held_ = true;
  return true;
}

void TimedMutex::unlock() {
  {
    std::lock_guard state(state_);
    held_ = false;
  }
  released_.notify_one();
}

}  // namespace ssp
