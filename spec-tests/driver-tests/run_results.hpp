// What one run of a GoogleTest suite did, read from its --gtest_output=json
// file, and the comparison of two runs of the conformance suite (in process
// and through a driver).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ssp::driver_tests {

enum class Outcome { passed, failed, errored, skipped };
std::string_view outcome_name(Outcome outcome);

// "Suite.Test/param" → outcome. A test that recorded the driver_error
// property, or whose failure reports a DriverError, is errored.
using RunResults = std::map<std::string, Outcome>;

// Parses the JSON GoogleTest writes. Throws std::runtime_error naming the
// problem when `json_text` is not such a document.
RunResults parse_run_results(std::string_view json_text);

// Every way `driver` differs from `in_process` where it must not: a test that
// passes in process must pass through the driver; a test skipped in either
// run must be skipped in both; both runs must hold the same tests. Nothing
// is excused: since protocol version 2 carries the push path, the driver
// has every capability the reference has. One line per difference, empty
// when the runs agree.
std::vector<std::string> compare_runs(const RunResults& in_process, const RunResults& driver);

}  // namespace ssp::driver_tests
