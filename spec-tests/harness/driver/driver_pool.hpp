// Driver processes kept from one store to the next (docs/driver-protocol.md,
// "Processes and concurrency"). A process whose store was closed cleanly
// serves the next open of the same command, so a run through an interpreted
// driver does not pay the interpreter's start-up for every store it opens.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "harness/driver/driver_process.hpp"

namespace ssp::harness {

class DriverPool {
 public:
  // At most this many idle processes per command are kept: the most stores a
  // test holds at once (the concurrency property races up to 16 connections);
  // a process beyond that would only wait to be ended.
  static constexpr std::size_t kMaxIdlePerCommand = 16;

  // The pool of this run. Reuse is on unless SSP_DRIVER_REUSE=0, which gives
  // every store a new process (protocol version 1 as first written).
  static DriverPool& of_this_run();

  // A process of `command` that has said hello: an idle one when the pool
  // holds one, else a new one. Throws what DriverProcess and say_hello throw.
  // Thread-safe.
  std::unique_ptr<DriverProcess> take(const std::string& command);

  // `process` has no open store left (its last open failed with an answer or
  // its last store was closed cleanly). It is kept for the next `take` when
  // reuse is on, it is healthy and the command has room; otherwise it is
  // ended here (stdin closed, exit awaited). Never throws. Thread-safe.
  void give_back(const std::string& command, std::unique_ptr<DriverProcess> process);

  // Ends every idle process. Called at the end of a run, and by the
  // destructor; a later `take` starts new ones.
  void end_idle();

  ~DriverPool();

 private:
  explicit DriverPool(bool reuse) : reuse_(reuse) {}

  const bool reuse_;
  std::mutex mutex_;
  std::map<std::string, std::vector<std::unique_ptr<DriverProcess>>> idle_;
};

}  // namespace ssp::harness
