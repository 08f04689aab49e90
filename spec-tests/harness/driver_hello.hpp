// The hello exchange (docs/driver-protocol.md, "hello"): what a driver says
// it is and implements.
#pragma once

#include <set>
#include <string>

#include "harness/driver_process.hpp"

namespace ssp::harness {

struct DriverHello {
  std::string name;
  std::string version;
  std::set<std::string> backends;
  std::set<std::string> areas;
  bool hooks = false;
  bool hasher = false;
  bool read_only = false;  // "readOnly"; absent means false (added after version 1 shipped)
};

// Sends hello on `process` and reads the answer strictly. Throws DriverError
// when the answer is malformed or speaks another protocol version.
DriverHello say_hello(DriverProcess& process);

}  // namespace ssp::harness
