// One object shared by the threads of one benchmark run. Google Benchmark
// starts every thread of a run in the same function; the first to arrive
// creates the object, each thread keeps a reference, and the object dies with
// the last reference when the run ends. Runs never overlap, so the next
// arrival after a full set of threads belongs to the next run.
#pragma once

#include <functional>
#include <memory>
#include <mutex>

namespace ssp::bench {

template <typename T>
class RunShared {
 public:
  std::shared_ptr<T> join(int threads, const std::function<std::shared_ptr<T>()>& make) {
    std::lock_guard lock(mutex_);
    if (arrivals_ == 0) current_ = make();
    std::shared_ptr<T> mine = current_;
    if (++arrivals_ == threads) {
      arrivals_ = 0;
      current_.reset();
    }
    return mine;
  }

 private:
  std::mutex mutex_;
  int arrivals_ = 0;
  std::shared_ptr<T> current_;
};

}  // namespace ssp::bench
