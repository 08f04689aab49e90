#include "property_run.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/detail/TestListenerAdapter.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>

namespace ssp::properties {

namespace {

void check_with(const std::function<void()>& property, const rc::detail::TestParams& params) {
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

}  // namespace

void check_property(const std::function<void()>& property, std::optional<int> default_cases) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  const char* configured = std::getenv("RC_PARAMS");
  if (default_cases &&
      (configured == nullptr || std::string(configured).find("max_success") == std::string::npos)) {
    params.maxSuccess = *default_cases;
  }
  check_with(property, params);
}

std::optional<std::string> find_counterexample(const std::function<void()>& property,
                                               int default_cases) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  const char* configured = std::getenv("RC_PARAMS");
  // A negative control claims a find within default_cases: RC_PARAMS may make
  // the search longer, never shorter.
  const bool counted = configured != nullptr &&
                       std::string(configured).find("max_success") != std::string::npos;
  params.maxSuccess = counted ? std::max(params.maxSuccess, default_cases) : default_cases;
  params.disableShrinking = true;  // a race found once need not be found smaller
  // A listener of its own: the counterexample a negative control exists to
  // find is no failure, so RapidCheck's default listener must not report it
  // for reproduction when the run ends.
  rc::detail::TestListenerAdapter quiet;
  const rc::detail::TestResult result =
      rc::detail::checkTestable(property, rc::detail::TestMetadata{}, params, quiet);
  if (result.template is<rc::detail::SuccessResult>()) return std::nullopt;
  std::ostringstream report;
  rc::detail::printResultMessage(result, report);
  return report.str();
}

void check_property_at_seed(const std::function<void()>& property, const RecordedSearch& search) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.seed = search.seed;
  params.maxSuccess = search.cases;
  params.maxSize = search.max_size;
  check_with(property, params);
}

}  // namespace ssp::properties
