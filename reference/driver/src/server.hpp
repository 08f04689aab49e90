// The reference driver: hello plus every method of docs/driver-protocol.md,
// served over one connection.
#pragma once

#include "connection.hpp"
#include "methods.hpp"

namespace ssp::driver {

// What the command line of ssp-reference-driver changes in its hello.
struct DriverSwitches {
  // false (--no-hooks): the hello declares no hook points (`hooks`,
  // `pushHooks`), as a production implementation has none, so the harness
  // runs only the tests that need none (docs/harness.md, "Parking without
  // hooks"), and a request that asks for them anyway is refused
  // (refuse_hook_requests).
  bool hooks = true;
  // false (--no-commands): the hello declares no `commands`, as a push
  // implementation without registered commands; the remote-command tests skip.
  bool commands = true;
};

// hello, as `switches` say, and every method of docs/driver-protocol.md.
MethodTable all_methods(const DriverSwitches& switches = {});

// Serves `connection` with `methods` until its input ends. Returns the exit
// status (0). The fake drivers of the harness's own tests serve a table with
// one method replaced.
int serve(Connection& connection, const MethodTable& methods = all_methods());

// serve() over standard input and output, as every driver program runs.
int serve_standard_streams(const MethodTable& methods);

}  // namespace ssp::driver
