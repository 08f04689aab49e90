#include "property_run.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdlib>
#include <sstream>
#include <string>

namespace ssp::properties {

void check_property(const std::function<void()>& property, std::optional<int> default_cases) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  const char* configured = std::getenv("RC_PARAMS");
  if (default_cases &&
      (configured == nullptr || std::string(configured).find("max_success") == std::string::npos)) {
    params.maxSuccess = *default_cases;
  }
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  // The same id RC_GTEST_PROP uses, so RC_PARAMS="reproduce=…" finds the case.
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(test->test_suite_name()) + "/" + test->name();
  metadata.description = test->name();

  const rc::detail::TestResult result = rc::detail::checkTestable(property, metadata, params);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream report;
    rc::detail::printResultMessage(result, report);
    FAIL() << report.str();
  }
}

}  // namespace ssp::properties
