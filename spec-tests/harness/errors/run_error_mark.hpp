// Errors of a run that are neither a pass nor a failure of the candidate: a
// bug of the suite itself (HarnessError) and a driver that broke the protocol
// (DriverError). Each marks the running test with a gtest property of its own,
// which the section report and JUnit/JSON output count apart from failures
// (docs/harness.md, "The verdict"), and each can be expected by the harness's
// own tests of its error paths.
#pragma once

#include <string>
#include <string_view>

namespace ssp::harness {

enum class RunErrorKind { harness, driver };

// How a message of the kind starts: "harness error: ", "driver error: ".
std::string_view run_error_prefix(RunErrorKind kind);

// Records the kind's property ("harness_error", "driver_error") with
// `message` on the running test, unless no test runs or a RunErrorsExpected
// of the kind lives on this thread.
void mark_running_test(RunErrorKind kind, const std::string& message);

// True when `message` (a test's failure text) reports an error of `kind`.
bool reports_run_error(RunErrorKind kind, const std::string& message);

// While one lives, errors of its kind raised on this thread do not mark the
// running test. Scopes nest.
class RunErrorsExpected {
 public:
  explicit RunErrorsExpected(RunErrorKind kind);
  ~RunErrorsExpected();
  RunErrorsExpected(const RunErrorsExpected&) = delete;
  RunErrorsExpected& operator=(const RunErrorsExpected&) = delete;

 private:
  RunErrorKind kind_;
  bool was_expected_;
};

}  // namespace ssp::harness
