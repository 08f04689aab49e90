// The reference driver: hello plus every method of docs/driver-protocol.md,
// served over one connection.
#pragma once

#include "connection.hpp"
#include "methods.hpp"

namespace ssp::driver {

// hello and every method of docs/driver-protocol.md.
MethodTable all_methods();

// Serves `connection` with `methods` until its input ends. Returns the exit
// status (0). The fake drivers of the harness's own tests serve a table with
// one method replaced.
int serve(Connection& connection, const MethodTable& methods = all_methods());

}  // namespace ssp::driver
