// What a run learned about one test: the unit every report of a run is made
// of (the section table, junit.xml, summary.json, summary.md; docs/harness.md,
// "Reports"). SectionReport fills one in as each test ends; the reports only
// read them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/catalog/requirement_level.hpp"

namespace ssp::harness {

enum class TestOutcome {
  passed,
  failed,           // failed, not listed in the expectations file
  expected_fail,    // failed, as the expectations file says: never fails the run
  unexpected_pass,  // passed, though listed as an expected failure: fails the run
  skipped,
  error,  // the driver broke the protocol, or the harness met its own bug: fails the run
};

// "passed", "failed", "expected-fail", "unexpected-pass", "skipped", "error".
std::string_view test_outcome_name(TestOutcome outcome);

struct TestRecord {
  std::string name;                        // "Prefix/Suite.Test/param", as GoogleTest names it
  std::string catalog_name;                // "Suite.Test", as the catalog lists it
  std::optional<std::string> requirement;  // the catalog row's id; none for an uncataloged test
  std::vector<std::string> sections;       // every section it counts under (section_ids.hpp)
  RequirementLevel level = RequirementLevel::must;
  std::optional<std::string> backend;  // "memory", "sqlite", "postgres"; none: not per backend
  TestOutcome outcome = TestOutcome::passed;
  // Whether a failure of this test fails the run under the run's profile
  // (failure_fails_the_run): false for a SHOULD test and, under profile spec,
  // a reference-level one. A failed test that does not count is a warning.
  bool counts = true;
  bool harness_error = false;  // an error of the suite itself, not the candidate's
  // Why it ended so: the failure or error messages, the skip's reason, the
  // expectation's reason; "" for a pass.
  std::string reason;
  double seconds = 0;
  std::optional<std::string> missing_capability;  // a skip for a capability the candidate lacks
};

// The backend a test runs on, from its parameter ("R1_X/sqlite" → "sqlite");
// none when the parameter names no backend or there is none.
std::optional<std::string> backend_of_test(std::string_view name);

}  // namespace ssp::harness
