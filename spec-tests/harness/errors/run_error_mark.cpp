#include "harness/errors/run_error_mark.hpp"

#include <gtest/gtest.h>

namespace ssp::harness {
namespace {

// Per kind, whether errors of it are expected on this thread.
thread_local bool errors_expected[2] = {false, false};

bool& expected(RunErrorKind kind) { return errors_expected[static_cast<int>(kind)]; }

}  // namespace

std::string_view run_error_prefix(RunErrorKind kind) {
  return kind == RunErrorKind::harness ? "harness error: " : "driver error: ";
}

void mark_running_test(RunErrorKind kind, const std::string& message) {
  if (expected(kind) || ::testing::UnitTest::GetInstance()->current_test_info() == nullptr) return;
  ::testing::Test::RecordProperty(kind == RunErrorKind::harness ? "harness_error" : "driver_error",
                                  message);
}

bool reports_run_error(RunErrorKind kind, const std::string& message) {
  return message.find(run_error_prefix(kind)) != std::string::npos;
}

RunErrorsExpected::RunErrorsExpected(RunErrorKind kind)
    : kind_(kind), was_expected_(expected(kind)) {
  expected(kind) = true;
}

RunErrorsExpected::~RunErrorsExpected() { expected(kind_) = was_expected_; }

}  // namespace ssp::harness
