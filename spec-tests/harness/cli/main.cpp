// Entry point of the suites: GoogleTest plus the per-section report.
#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "harness/candidate/candidate.hpp"
#include "harness/catalog/catalog.hpp"
#include "harness/cli/command_line.hpp"
#include "harness/cli/exercise_rules.hpp"
#include "harness/cli/progress_line.hpp"
#include "harness/cli/test_listing.hpp"
#include "harness/data/data_directory.hpp"
#include "harness/data/deferred_registration.hpp"
#include "harness/driver/driver_pool.hpp"
#include "harness/gates/suite_capabilities.hpp"
#include "harness/verdict/expectations.hpp"
#include "harness/verdict/report_files.hpp"
#include "harness/verdict/section_report.hpp"
#include "harness/verdict/suite_identity.hpp"
#include "harness/verdict/verdict_profile.hpp"

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

// "Prefix/Suite.Test/param" of every test the filter selects, in run order.
std::vector<std::string> selected_test_names() {
  std::vector<std::string> names;
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(i);
    for (int j = 0; j < suite.total_test_count(); ++j) {
      const ::testing::TestInfo& test = *suite.GetTestInfo(j);
      if (test.should_run()) names.push_back(std::string(suite.name()) + "." + test.name());
    }
  }
  return names;
}

// The width of the terminal stderr is on; COLUMNS, then 80, when it does not say.
int terminal_columns() {
  winsize size{};
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  const char* columns = std::getenv("COLUMNS");
  const int parsed = columns != nullptr ? std::atoi(columns) : 0;
  return parsed > 0 ? parsed : 80;
}

}  // namespace

// Exit status: 0 every test that counts passed (or failed as the candidate's
// expectations say), 1 a test that counts failed (SSP_PROFILE says which
// levels count: section_report.hpp), 2 a test erred (the candidate's driver
// broke the protocol; docs/driver-protocol.md), or a flag (command_line.hpp),
// SSP_EXPECTATIONS or SSP_PROFILE is not right, the suite's data is missing
// (data_directory.hpp), or --report-dir cannot be written.
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
  const std::string program = std::filesystem::path(argv[0]).filename().string();
  // The data every test reads, and what judged the run, are known before any
  // test runs: without them the run stops here, naming what it looked for.
  ssp::harness::SuiteIdentity identity;
  std::vector<ssp::harness::CatalogEntry> catalog;
  try {
    const auto pages =
        ssp::harness::read_catalog_pages(ssp::harness::data_path("requirements").string());
    identity = ssp::harness::suite_identity(pages);
    catalog = ssp::harness::catalog_of(pages);
  } catch (const std::exception& failure) {
    std::fprintf(stderr, "%s: %s\n", program.c_str(), failure.what());
    return 2;
  }
  if (line.version) {
    std::fputs(ssp::harness::suite_version_text(program, identity).c_str(), stdout);
    return 0;
  }
  ssp::harness::run_deferred_registrations();  // the tests made from data (the races)
  GTEST_FLAG_SET(filter, ssp::harness::filter_for_backends(GTEST_FLAG_GET(filter), line.backends));
  const std::map<std::string, ssp::harness::CatalogTest> cataloged =
      ssp::harness::catalog_tests(catalog);
  if (line.list) {
    // should_run() reflects the filter once RUN_ALL_TESTS has applied it;
    // with list_tests GoogleTest applies it and runs nothing, printing its
    // own listing, which goes to /dev/null: this one replaces it.
    GTEST_FLAG_SET(list_tests, true);
    std::fflush(stdout);
    const int saved_stdout = dup(STDOUT_FILENO);
    std::FILE* null = std::fopen("/dev/null", "w");
    if (saved_stdout < 0 || null == nullptr) {
      std::fprintf(stderr, "--list: cannot set stdout aside\n");
      return 2;
    }
    dup2(fileno(null), STDOUT_FILENO);
    [[maybe_unused]] const int listed = RUN_ALL_TESTS();
    std::fflush(stdout);
    dup2(saved_stdout, STDOUT_FILENO);
    close(saved_stdout);
    std::fclose(null);
    std::fputs(ssp::harness::test_listing(selected_test_names(), cataloged,
                                          ssp::harness::suite_capability_keys())
                   .c_str(),
               stdout);
    return 0;
  }
#ifdef SSP_REFERENCE_ONLY
  // Self-tests pin the reference itself: another candidate is not theirs to test.
  unsetenv("SSP_CANDIDATE");
#endif
  // Chosen before any test runs, so a bad SSP_CANDIDATE stops here with a
  // message. A driver that does not start is reported by every test instead.
  std::string candidate;
  const ssp::harness::Candidate* started = nullptr;
  try {
    started = &ssp::harness::current_candidate();
    candidate = started->name();
  } catch (const std::exception& failure) {
    candidate = std::string("(did not start) ") + failure.what();
  }
  ssp::harness::ExerciseRules exercise_rules;
  try {
    exercise_rules = ssp::harness::exercise_rules(started);
  } catch (const std::exception& failure) {
    std::fprintf(stderr, "%s: %s\n", ssp::harness::setting_name(line, "SSP_CLAIMS").c_str(),
                 failure.what());
    return 2;
  }
  ssp::harness::Expectations expectations;
  try {
    expectations = ssp::harness::expectations_from_environment(all_test_names());
  } catch (const std::exception& failure) {
    std::fprintf(stderr, "%s: %s\n", ssp::harness::setting_name(line, "SSP_EXPECTATIONS").c_str(),
                 failure.what());
    return 2;
  }
  ssp::harness::VerdictProfile profile;
  try {
    profile = ssp::harness::verdict_profile_from_environment();
  } catch (const std::exception& failure) {
    std::fprintf(stderr, "%s\n", failure.what());
    return 2;
  }
  auto* report =
      new ssp::harness::SectionReport(candidate, cataloged, std::move(expectations), profile);
  ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
  report->require_exercised(std::move(exercise_rules));
  listeners.Append(report);  // gtest owns it
  // Progress on a terminal, unless GoogleTest prints every test to it already.
  if (isatty(STDERR_FILENO) && (GTEST_FLAG_GET(brief) || !isatty(STDOUT_FILENO))) {
    listeners.Append(new ssp::harness::ProgressLine(cataloged,
                                                    terminal_columns()));  // gtest owns it
  }
  if (std::getenv("SSP_INJECT_FAILURE_OUTSIDE_TESTS") != nullptr) {
    // The harness's own test of its exit status (HARNESS-28): a failure no
    // test owns, as a global environment's tear-down would record.
    ::testing::AddGlobalTestEnvironment(new ssp::harness::FailingTearDown);  // gtest owns it
  }
  const int status = report->exit_status(RUN_ALL_TESTS());
  // Driver processes kept for reuse end with the run, not at exit.
  ssp::harness::DriverPool::of_this_run().end_idle();
  if (!line.report_dir.empty()) {
    try {
      ssp::harness::write_reports(line.report_dir,
                                  {.executable = program,
                                   .suite = identity,
                                   .candidate = report->candidate(),
                                   .profile = report->profile(),
                                   .exit_status = status,
                                   .tests = report->records(),
                                   .outside_tests = report->outside_tests(),
                                   .exercised = report->exercised(),
                                   .requirements = catalog});
    } catch (const std::exception& failure) {
      std::fprintf(stderr, "--report-dir: %s\n", failure.what());
      return 2;
    }
    std::printf("reports: %s/{junit.xml,summary.json,summary.md}\n", line.report_dir.c_str());
  }
  return status;
}
