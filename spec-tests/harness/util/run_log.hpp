// What a run's tests record for a page written after the last of them
// (docs/races.md, docs/faults.md), from any thread.
#pragma once

#include <mutex>
#include <utility>
#include <vector>

namespace ssp::harness {

template <class Record>
class RunLog {
 public:
  // The one log of `Record` for this run.
  static RunLog& of_this_run() {
    static RunLog log;
    return log;
  }

  void record(Record record) {
    std::lock_guard lock(mutex_);
    records_.push_back(std::move(record));
  }

  // Every record so far, in the order recorded.
  std::vector<Record> all() const {
    std::lock_guard lock(mutex_);
    return records_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Record> records_;
};

}  // namespace ssp::harness
