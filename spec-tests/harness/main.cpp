// Entry point of the suites: GoogleTest plus the per-section report.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "harness/candidate.hpp"
#include "harness/catalog.hpp"
#include "harness/command_line.hpp"
#include "harness/driver_pool.hpp"
#include "harness/expectations.hpp"
#include "harness/section_report.hpp"
#include "harness/verdict_profile.hpp"

namespace ssp::harness {

// Records a failure outside every test when the run ends.
class FailingTearDown final : public ::testing::Environment {
 public:
  void TearDown() override {
    ADD_FAILURE() << "a failure injected outside every test (SSP_INJECT_FAILURE_OUTSIDE_TESTS)";
  }
};

}  // namespace ssp::harness

namespace {

// "Suite.Test/param" of every test the executable has, filtered or not.
std::vector<std::string> all_test_names() {
  std::vector<std::string> names;
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(i);
    for (int j = 0; j < suite.total_test_count(); ++j) {
      names.push_back(std::string(suite.name()) + "." + suite.GetTestInfo(j)->name());
    }
  }
  return names;
}

}  // namespace

// Exit status: 0 every test that counts passed (or failed as the candidate's
// expectations say), 1 a test that counts failed (SSP_PROFILE says which
// levels count: section_report.hpp), 2 a test erred (the candidate's driver
// broke the protocol; docs/driver-protocol.md), or a flag (command_line.hpp),
// SSP_EXPECTATIONS or SSP_PROFILE is not right.
int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);  // takes its own flags out of argv
  ssp::harness::CommandLine line;
  try {
    line = ssp::harness::parse_command_line(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const ssp::harness::CommandLineError& wrong) {
    std::fprintf(stderr, "%s: %s (see --help)\n", argv[0], wrong.what());
    return 2;
  }
  if (line.help) {
    std::fputs(ssp::harness::command_line_help(argv[0]).c_str(), stdout);
    return 0;
  }
  for (const auto& [variable, value] : line.environment) setenv(variable.c_str(), value.c_str(), 1);
  GTEST_FLAG_SET(filter, ssp::harness::filter_for_backends(GTEST_FLAG_GET(filter), line.backends));
#ifdef SSP_REFERENCE_ONLY
  // Self-tests pin the reference itself: another candidate is not theirs to test.
  unsetenv("SSP_CANDIDATE");
#endif
  // Chosen before any test runs, so a bad SSP_CANDIDATE stops here with a
  // message. A driver that does not start is reported by every test instead.
  std::string candidate;
  try {
    candidate = ssp::harness::current_candidate().name();
  } catch (const std::exception& failure) {
    candidate = std::string("(did not start) ") + failure.what();
  }
  ssp::harness::Expectations expectations;
  try {
    expectations = ssp::harness::expectations_from_environment(all_test_names());
  } catch (const std::exception& failure) {
    std::fprintf(stderr, "SSP_EXPECTATIONS: %s\n", failure.what());
    return 2;
  }
  ssp::harness::VerdictProfile profile;
  try {
    profile = ssp::harness::verdict_profile_from_environment();
  } catch (const std::exception& failure) {
    std::fprintf(stderr, "%s\n", failure.what());
    return 2;
  }
  auto* report = new ssp::harness::SectionReport(
      candidate, ssp::harness::catalog_tests(std::string(SSP_SOURCE_DIR) + "/docs/requirements"),
      std::move(expectations), profile);
  ::testing::UnitTest::GetInstance()->listeners().Append(report);  // gtest owns it
  if (std::getenv("SSP_INJECT_FAILURE_OUTSIDE_TESTS") != nullptr) {
    // The harness's own test of its exit status (HARNESS-28): a failure no
    // test owns, as a global environment's tear-down would record.
    ::testing::AddGlobalTestEnvironment(new ssp::harness::FailingTearDown);  // gtest owns it
  }
  const int status = RUN_ALL_TESTS();
  // Driver processes kept for reuse end with the run, not at exit.
  ssp::harness::DriverPool::of_this_run().end_idle();
  return report->exit_status(status);
}
