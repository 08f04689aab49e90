#include "segment_property_run.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>

namespace ssp::properties {
namespace {

bool rc_params_mention(const std::string& key) {
  const char* params = std::getenv("RC_PARAMS");
  return params != nullptr && std::string(params).find(key) != std::string::npos;
}

rc::detail::TestParams params_for(harness::Backend backend) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  if (backend != harness::Backend::postgres) return params;
  if (!rc_params_mention("max_success")) {
    params.maxSuccess = std::min(params.maxSuccess, kPostgresMaxSuccess);
  }
  if (!rc_params_mention("max_size")) {
    params.maxSize = std::min(params.maxSize, kPostgresMaxSize);
  }
  return params;
}

}  // namespace

void check_property(harness::Backend backend, const std::function<void()>& property) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  // The same id RC_GTEST_PROP uses, so RC_PARAMS="reproduce=…" finds the case.
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(test->test_suite_name()) + "/" + test->name();
  metadata.description = test->name();

  const rc::detail::TestResult result =
      rc::detail::checkTestable(property, metadata, params_for(backend));
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream report;
    rc::detail::printResultMessage(result, report);
    FAIL() << report.str();
  }
}

}  // namespace ssp::properties
