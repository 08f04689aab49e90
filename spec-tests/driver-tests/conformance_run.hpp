// Runs the built conformance suite against a candidate driver, as CI would,
// and reads back what each test did.
#pragma once

#include <string>
#include <vector>

#include "run_results.hpp"

namespace ssp::driver_tests {

struct ConformanceRun {
  int exit_code = -1;  // -1: the suite itself did not exit normally (it crashed)
  std::string output;  // its stdout, then its stderr
  RunResults results;  // from its --gtest_output=json file
};

// Runs the suite executable `binary` --gtest_filter=`filter` with
// SSP_CANDIDATE set to `candidate` and the `extra_env` entries
// ("NAME=value"), and waits for it.
ConformanceRun run_suite(const std::string& binary, const std::string& candidate,
                         const std::string& filter,
                         const std::vector<std::string>& extra_env = {});

// run_suite of ssp-conformance.
ConformanceRun run_conformance(const std::string& candidate, const std::string& filter,
                               const std::vector<std::string>& extra_env = {});

// run_suite of ssp-faults (the fault tests, docs/faults.md).
ConformanceRun run_faults(const std::string& candidate, const std::string& filter,
                          const std::vector<std::string>& extra_env = {});

// The fake driver `name` of spec-tests/driver-tests/fakes, as an exec: candidate.
std::string fake_candidate(const std::string& name);

}  // namespace ssp::driver_tests
