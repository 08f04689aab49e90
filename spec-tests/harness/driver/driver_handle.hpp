// A store or storage a driver opened, in a process of its own
// (docs/driver-protocol.md, "Processes and concurrency"): calls carry its
// handle, destruction closes it and ends the process.
#pragma once

#include <memory>
#include <string>

#include "harness/driver/driver_process.hpp"

namespace ssp::harness {

class DriverHandle {
 public:
  // Takes a process of `command` from the run's DriverPool (a new one says
  // hello first) and calls `<area>.open` with `params`; the result's `key`
  // field is the handle. Throws DriverError, or what the open's error answer
  // stands for.
  DriverHandle(const std::string& command, std::string area, std::string key, wire::Json params);
  // Calls `<area>.close` when the process is still healthy, then gives the
  // process back to the pool. A failure there is added to the running test
  // as a failure, never thrown, and ends the process.
  ~DriverHandle();
  DriverHandle(const DriverHandle&) = delete;
  DriverHandle& operator=(const DriverHandle&) = delete;

  // `<area>.<verb>` with the handle added to `params`.
  wire::Json call(const std::string& verb, wire::Json params,
                  const DriverProcess::CallbackHandler& on_callback = {});
  std::string method(const std::string& verb) const { return area_ + "." + verb; }
  // `method` of another area that reads this object (download.authorize reads
  // a store), with the handle added to `params` the same way.
  wire::Json call_method(const std::string& method, wire::Json params,
                         const DriverProcess::CallbackHandler& on_callback = {});
  // The process serving this object, for requests about objects it holds for
  // this one (a transaction it began, a push in flight).
  DriverProcess& process() { return *process_; }
  // Kills the process serving this object (DriverProcess::kill_and_reap):
  // the object is gone with it, and destruction closes nothing.
  void kill_process(const std::string& reason) { process_->kill_and_reap(reason); }

 private:
  const std::string command_;
  std::unique_ptr<DriverProcess> process_;
  std::string area_;
  std::string key_;
  wire::Json handle_;
};

}  // namespace ssp::harness
