// Using a candidate's answer that may be absent. A test cannot go on without
// some answers (a record to inspect, a row to decode, a store to use); a wrong
// candidate that answers nothing there must fail that test, never crash the
// run. ASSERT_TRUE(answer) does this in a test body; require_found also works
// inside an expression and in helpers that return a value, where ASSERT_*
// cannot.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <source_location>
#include <stdexcept>
#include <string>

namespace ssp::harness {

// Thrown after the failure is recorded. GoogleTest catches it at the test
// boundary (and reports it as a thrown exception too), then runs the next test.
class AnswerMissing : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Records a failure at `where` saying `message`, then throws AnswerMissing.
[[noreturn]] inline void fail_answer_missing(const std::string& message,
                                             const std::source_location& where) {
  ADD_FAILURE_AT(where.file_name(), static_cast<int>(where.line())) << message;
  throw AnswerMissing(message + " (the test ends here)");
}

// The value of `answer`; when it is absent, the test fails at the caller's
// line naming `what` (e.g. "get(id)") and ends.
template <typename T>
T require_found(std::optional<T> answer, const std::string& what,
                std::source_location where = std::source_location::current()) {
  if (!answer) fail_answer_missing("the candidate answered nothing to " + what, where);
  return std::move(*answer);
}

// `opened`, a store the candidate opened; when it is null, the test fails at
// the caller's line naming `what` (e.g. "segment store") and ends.
template <typename T>
std::unique_ptr<T> require_opened(std::unique_ptr<T> opened, const std::string& what,
                                  std::source_location where = std::source_location::current()) {
  if (!opened) fail_answer_missing("the candidate opened no " + what, where);
  return opened;
}

}  // namespace ssp::harness
