// How the harness reports an out-of-process candidate that broke the driver
// protocol (docs/driver-protocol.md, "What the harness reports"): a
// DriverError is an error of the run, distinct from a failed assertion.
#pragma once

#include <stdexcept>
#include <string>

#include "harness/errors/run_error_mark.hpp"
#include "wire/wire_json.hpp"

namespace ssp::harness {

// The message starts with "driver error: " and names the method in flight.
class DriverError : public std::runtime_error {
 public:
  // Also records the gtest property "driver_error" on the running test, so
  // the section report and JUnit/JSON output count it as an error.
  DriverError(const std::string& method, const std::string& problem);
};

// A driver that stayed silent past its deadline, or a call that outlasted its
// ceiling: the implementation never answered, and the driver was killed.
// Like any DriverError an error of the run, but where the harness faulted the
// call itself (a cut connection, round_trip_cuts.hpp), a call that never
// answers is the candidate's failure (fails-cleanly), and the fault test says
// so.
class DriverSilent : public DriverError {
 public:
  using DriverError::DriverError;
};

// For the harness's own tests of a driver's refusals: while one lives, a
// DriverError constructed on this thread does not mark the running test.
class DriverErrorsExpected : public RunErrorsExpected {
 public:
  DriverErrorsExpected() : RunErrorsExpected(RunErrorKind::driver) {}
};

// True when `message` (a test's failure text) reports a DriverError.
inline bool reports_driver_error(const std::string& message) {
  return reports_run_error(RunErrorKind::driver, message);
}

// A driver relayed an answer of its implementation that is not a valid value
// for the method (ssp.invalid_result): the candidate answered wrongly, so the
// test that asked fails; unlike a DriverError, the run does not err.
class InvalidCandidateAnswer : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Raises what an error answer stands for (docs/driver-protocol.md, "Errors"):
// the exception type of its code with the driver's message as what(), or a
// DriverError for the driver's own codes, unknown codes and malformed errors.
[[noreturn]] void raise_error_answer(const std::string& method, const wire::Json& error);

}  // namespace ssp::harness

namespace ssp::harness {

// Runs `decode` over an answer; a WireError (a missing or mistyped field)
// becomes a DriverError naming `method`.
template <class Decode>
auto decode_answer(const std::string& method, Decode&& decode) -> decltype(decode()) {
  try {
    return decode();
  } catch (const wire::WireError& error) {
    throw DriverError(method, std::string("protocol violation: ") + error.what());
  }
}

}  // namespace ssp::harness
