// A bug of the suite itself, reported as such: a test that reached a
// capability without its gate, or the harness's own SQL failing for a reason
// that is not about the candidate's tables. It is neither the candidate's
// failure nor its driver's error (docs/harness.md, "The verdict").
#pragma once

#include <stdexcept>
#include <string>

#include "harness/errors/run_error_mark.hpp"

namespace ssp::harness {

// The message starts with "harness error: ".
class HarnessError : public std::logic_error {
 public:
  // Also records the gtest property "harness_error" on the running test, so
  // the section report counts it apart from the candidate's failures.
  explicit HarnessError(const std::string& problem);
};

// True when `message` (a test's failure text) reports a HarnessError.
inline bool reports_harness_error(const std::string& message) {
  return reports_run_error(RunErrorKind::harness, message);
}

// For the harness's own tests of its error paths: while one lives, a
// HarnessError constructed on this thread does not mark the running test.
class HarnessErrorsExpected : public RunErrorsExpected {
 public:
  HarnessErrorsExpected() : RunErrorsExpected(RunErrorKind::harness) {}
};

}  // namespace ssp::harness
