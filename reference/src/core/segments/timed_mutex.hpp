// A mutex whose lock can give up after a while (Lockable and timed, for
// std::unique_lock and std::lock_guard).
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace ssp {

// Why not std::timed_mutex: libstdc++ implements its try_lock_for with
// pthread_mutex_clocklock, which GCC 12's ThreadSanitizer does not intercept.
// Every lock taken that way was invisible to it, so every unlock was reported
// as the unlock of an unlocked mutex and no race around the lock could be
// judged. A condition variable's timed wait is intercepted.
class TimedMutex {
 public:
  // Waits as long as it takes.
  void lock();
  // Waits at most `wait`; false when the mutex was still held then.
  [[nodiscard]] bool try_lock_for(std::chrono::milliseconds wait);
  // The caller holds the mutex.
  void unlock();

 private:
  std::mutex state_;
  std::condition_variable released_;
  bool held_ = false;
};

}  // namespace ssp
