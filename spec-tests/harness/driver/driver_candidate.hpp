// A candidate served by an out-of-process driver (docs/driver-protocol.md),
// selected with SSP_CANDIDATE='exec:COMMAND ARGS'.
#pragma once

#include <memory>
#include <string>

#include "harness/candidate/candidate.hpp"

namespace ssp::harness {

// Starts `command` (run by /bin/sh, so quoting works as in a shell), says
// hello, and keeps that process for the run; every store or storage opened
// later gets a process of its own. Throws DriverError when the driver cannot
// be started or its hello breaks the protocol.
std::unique_ptr<Candidate> make_driver_candidate(const std::string& command);

}  // namespace ssp::harness
