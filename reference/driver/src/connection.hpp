// The driver's end of the stdio connection (docs/driver-protocol.md): reads
// request lines, serves each on a thread of its own (a request parked at a
// hook must not stop the others), writes answers, and lets a request call
// back into the harness and wait for the answer.
#pragma once

#include <condition_variable>
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

  // Reads until end of input, calling `serve(request)` on a new thread for
  // each request and routing answers to the callbacks waiting for them.
  // Returns once input ended and every request thread has been joined. A line
  // that breaks the protocol is reported on stderr and skipped.
  void run(const std::function<void(const Json& request)>& serve);

 private:
  struct Waiting {
    std::optional<Json> answer;
  };
  void deliver(const Json& answer);
  // Joins the request threads that reported themselves finished (run's
  // thread only).
  void join_finished();

  std::istream& in_;
  std::ostream& out_;
  std::mutex write_mutex_;
  std::mutex mutex_;
  std::condition_variable answered_;
  std::map<std::string, Waiting*> waiting_;
  long next_callback_ = 0;
  int serving_ = 0;  // request threads still running
  bool closed_ = false;
  // Request threads by number, until joined (run's thread only), and the
  // numbers of those whose request is done (under mutex_).
  std::map<long, std::thread> workers_;
  std::vector<long> finished_;
  long next_worker_ = 0;
};

}  // namespace ssp::driver
