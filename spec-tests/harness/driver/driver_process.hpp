// One running driver process and the harness's end of its connection
// (docs/driver-protocol.md): starts the command, sends requests, routes
// answers by id, runs the driver's callbacks on the calling thread, and turns
// every way a driver can misbehave into a DriverError naming the method.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "wire/wire_json.hpp"

namespace ssp::harness {

// How long the harness waits for a driver.
struct DriverLimits {
  // The most the driver may stay silent during a call: from the request, or
  // from the harness's answer to one of its callbacks, to its next line.
  // SSP_DRIVER_TIMEOUT_MS, default 30 s.
  std::chrono::milliseconds deadline;
  // The most one call may take in all, from the request to its answer,
  // callbacks included: the deadline restarts after every callback, the
  // ceiling never, so a driver that keeps calling back cannot hold a call
  // open forever. SSP_DRIVER_CALL_CEILING_MS, default four deadlines and at
  // least 120 s (a hook may park a call while the test's 60 s watchdogs run).
  std::chrono::milliseconds ceiling;
};

// The limits the environment sets (above); a value that is not a positive
// whole number of milliseconds is ignored.
DriverLimits driver_limits();

class DriverProcess {
 public:
  // Serves one callback request of the driver (method, params) and returns
  // its result. A DriverError it throws ends the call (the driver is killed);
  // so does CandidateKilled, which call() rethrows once the process is gone
  // (kill_and_reap); any other exception becomes the callback's error answer.
  using CallbackHandler =
      std::function<wire::Json(const std::string& method, const wire::Fields& params)>;

  // Starts `/bin/sh -c "exec COMMAND"` in a process group of its own, stdin
  // and stdout piped, stderr to a temporary file. Throws DriverError when it
  // cannot start.
  DriverProcess(const std::string& command, DriverLimits limits);
  // Closes stdin, waits (up to the deadline) for the exit, kills the process
  // group if it does not exit, removes the stderr file. Never throws.
  ~DriverProcess();
  DriverProcess(const DriverProcess&) = delete;
  DriverProcess& operator=(const DriverProcess&) = delete;

  // Sends `method` and waits for its result object. Thread-safe: calls from
  // several threads are in flight together. Throws what an error answer
  // stands for (raise_error_answer) — for `ssp.callback_failed`, the exception
  // `on_callback` threw during this call —, or DriverError when the driver
  // stays silent past the deadline or the call outlasts its ceiling (the
  // driver is killed either way), the driver exits, or it breaks the
  // protocol. Time spent in `on_callback` counts against the ceiling only.
  // A call left unanswered past the deadline or the ceiling throws
  // DriverSilent, the DriverError that says the implementation never answered.
  wire::Json call(const std::string& method, wire::Json params,
                  const CallbackHandler& on_callback = {});

  // Whether the process is still usable (no exit, no violation, no deadline).
  bool healthy() const;

  // Kills the process group and returns once the process is reaped, so that
  // whatever it held (an open transaction, its database connections, what it
  // kept in memory) is gone; the process is unusable after, for `reason`.
  // A callback that throws CandidateKilled ends its call this way, and the
  // call then rethrows that exception. Never throws; waits at most a deadline.
  void kill_and_reap(const std::string& reason);

 private:
  struct Pending {
    std::string method;
    std::optional<wire::Json> answer;
    std::deque<wire::Json> callbacks;
  };

  void read_loop();
  void handle_line(const std::string& line);
  // Marks the connection broken (first reason wins) and kills the driver.
  void break_connection(const std::string& reason);
  void kill_locked();
  void write_line(const wire::Json& message);
  // Answers one callback `request` the driver made during call `method` (the
  // lock not held): with on_callback's result, or with an error answer, where
  // the first exception of the test's own function is kept in
  // `callback_failure`. Throws, after breaking the connection, what ends the
  // call: CandidateKilled, a DriverError, a malformed callback.
  void answer_callback(const std::string& method, wire::Json request,
                       const CallbackHandler& on_callback, std::exception_ptr& callback_failure);
  // The result object of `answer` to call `method`, or what its error answer
  // stands for: `callback_failure` for `ssp.callback_failed` when a callback
  // threw, else raise_error_answer's exception.
  wire::Json result_of(const std::string& method, const wire::Json& answer,
                       const std::exception_ptr& callback_failure);
  std::string stderr_tail() const;
  [[noreturn]] void fail(const std::string& method, const std::string& problem);

  pid_t pid_ = -1;
  int to_driver_ = -1;
  int from_driver_ = -1;
  std::string stderr_path_;
  DriverLimits limits_;

  mutable std::mutex mutex_;
  std::mutex write_mutex_;
  std::condition_variable changed_;
  std::map<std::int64_t, Pending*> pending_;
  std::int64_t last_id_ = 0;
  std::optional<std::string> broken_;  // why nothing more can be asked
  bool silent_ = false;  // broken_ because a call went unanswered past its deadline or ceiling
  bool reaped_ = false;
  std::thread reader_;
};

}  // namespace ssp::harness
