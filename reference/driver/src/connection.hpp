// The driver's end of the stdio connection (docs/driver-protocol.md): reads
// request lines, serves each on a worker thread (a request parked at a hook
// must not stop the others), writes answers, and lets a request call back
// into the harness and wait for the answer.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <istream>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "wire/wire_json.hpp"

namespace ssp::driver {

using wire::Json;

// The harness answered a callback with an error (e.g. its scope resolver threw).
class CallbackRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The harness closed the connection while a callback waited for its answer.
class ConnectionClosed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Connection {
 public:
  Connection(std::istream& in, std::ostream& out) : in_(in), out_(out) {}

  // Writes `message` as one line. Thread-safe.
  void send(const Json& message);

  // Sends callback `method` with `params` (plus "call": `call_id`) and waits
  // for the harness's answer: its result, or CallbackRefused with the error
  // message, or ConnectionClosed. Thread-safe.
  Json callback(const Json& call_id, const std::string& method, Json params);

  // Reads until end of input, calling `serve(request)` on a worker thread for
  // each request and routing answers to the callbacks waiting for them. A
  // request goes to a worker that is waiting for work, or to a new one when
  // every worker is busy, so no request waits for another. Returns once input
  // ended and every worker has been joined. A line that breaks the protocol
  // is reported on stderr and skipped.
  void run(const std::function<void(const Json& request)>& serve);

 private:
  struct Waiting {
    std::optional<Json> answer;
  };
  void deliver(const Json& answer);
  // Hands `request` to an idle worker, or starts one for it (run's thread only).
  void dispatch(const std::function<void(const Json& request)>& serve, const Json& request);
  // A worker's life: serves `request`, then each request handed to it, until
  // the connection closes.
  void work(const std::function<void(const Json& request)>& serve, Json request);

  std::istream& in_;
  std::ostream& out_;
  std::mutex write_mutex_;
  std::mutex mutex_;
  std::condition_variable answered_;
  std::map<std::string, Waiting*> waiting_;
  long next_callback_ = 0;
  int serving_ = 0;  // requests read and not yet served
  bool closed_ = false;
  // Workers are reused because starting a thread per request cost more than
  // serving it under the sanitizers (thousands of requests a test; a thread's
  // start and end map and unmap its stack and allocator caches). Under mutex_:
  // requests handed to idle workers and not yet taken, and how many idle
  // workers have no request yet; `work_ready_` wakes them.
  std::deque<Json> handed_;
  int idle_ = 0;
  std::condition_variable work_ready_;
  std::vector<std::thread> workers_;  // run's thread only
};

}  // namespace ssp::driver
