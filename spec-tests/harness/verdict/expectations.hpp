// A candidate's expected failures: the tests it is known to fail, each with
// its reason, in a file the candidate owns (SSP_EXPECTATIONS names it;
// docs/harness.md, "Expected failures"). An expected failure does not fail
// the run; an expected failure that passes does, so a stale entry is noticed.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace ssp::harness {

struct ExpectedFailure {
  std::string test;         // "Suite.Test/param", exactly as GoogleTest names it
  std::string requirement;  // the requirement id the test's name starts with
  std::string backend;      // the parameter, or "" for an unparameterised test
  std::string reason;       // why the candidate fails it
  std::string spec;         // the SSP2 section the behaviour rests on
};

// Expected failures by test name.
using Expectations = std::map<std::string, ExpectedFailure>;

// Reads `path`: {"candidate": text, "expectedFailures": [{"test", "requirement",
// "backend", "reason", "spec"}, …]}, every field a non-empty string except
// "backend", which may be empty. Throws std::runtime_error naming the file and
// the entry at fault: unreadable, not that shape, a test listed twice, or a
// test that `known_tests` (every test the executable has) does not contain.
Expectations load_expectations(const std::string& path, const std::vector<std::string>& known_tests);

// The expectations SSP_EXPECTATIONS names (none when it is unset or empty).
Expectations expectations_from_environment(const std::vector<std::string>& known_tests);

}  // namespace ssp::harness
