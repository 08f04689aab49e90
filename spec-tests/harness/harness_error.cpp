#include "harness/harness_error.hpp"

#include <gtest/gtest.h>

#include <string_view>

namespace ssp::harness {
namespace {

constexpr std::string_view kHarnessErrorPrefix = "harness error: ";
thread_local bool harness_errors_expected = false;

}  // namespace

HarnessError::HarnessError(const std::string& problem)
    : std::logic_error(std::string(kHarnessErrorPrefix) + problem) {
  if (!harness_errors_expected &&
      ::testing::UnitTest::GetInstance()->current_test_info() != nullptr) {
    ::testing::Test::RecordProperty("harness_error", what());
  }
}

HarnessErrorsExpected::HarnessErrorsExpected() : was_expected_(harness_errors_expected) {
  harness_errors_expected = true;
}

HarnessErrorsExpected::~HarnessErrorsExpected() { harness_errors_expected = was_expected_; }

bool reports_harness_error(const std::string& message) {
  return message.find(kHarnessErrorPrefix) != std::string::npos;
}

}  // namespace ssp::harness
