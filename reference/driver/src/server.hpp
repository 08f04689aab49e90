// The reference driver: hello plus every method of docs/driver-protocol.md,
// served over one connection.
#pragma once

#include "connection.hpp"

namespace ssp::driver {

// Serves `connection` until its input ends. Returns the exit status (0).
int serve(Connection& connection);

}  // namespace ssp::driver
