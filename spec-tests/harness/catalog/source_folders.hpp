// Where the suite's tests sit, for the checks that read their sources
// (TRACE-9's reference-rule scan, HARNESS-25's gate scan). Paths are relative
// to the repository root; spec-tests/README.md and property-tests/README.md
// say what each folder holds.
#pragma once

#include <string>
#include <vector>

namespace ssp::harness {

// The conformance tests: spec-tests/<concept>/, a folder for each page of
// docs/requirements/ that has conformance tests. Not the self-tests, nor the
// harness's or the driver's own tests.
const std::vector<std::string>& conformance_test_folders();

// The properties: property-tests/ (the runner) and its concept folders.
const std::vector<std::string>& property_test_folders();

}  // namespace ssp::harness
