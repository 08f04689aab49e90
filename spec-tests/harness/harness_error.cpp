#include "harness/harness_error.hpp"

#include <gtest/gtest.h>

#include <string_view>

namespace ssp::harness {
namespace {

constexpr std::string_view kPrefix = "harness error: ";
thread_local bool expected_here = false;

}  // namespace

HarnessError::HarnessError(const std::string& problem)
    : std::logic_error(std::string(kPrefix) + problem) {
  if (!expected_here && ::testing::UnitTest::GetInstance()->current_test_info() != nullptr) {
    ::testing::Test::RecordProperty("harness_error", what());
  }
}

HarnessErrorsExpected::HarnessErrorsExpected() : was_expected_(expected_here) {
  expected_here = true;
}

HarnessErrorsExpected::~HarnessErrorsExpected() { expected_here = was_expected_; }

bool reports_harness_error(const std::string& message) {
  return message.find(kPrefix) != std::string::npos;
}

}  // namespace ssp::harness
