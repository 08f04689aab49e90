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


// A run that ends before or after its tests: the exit status, and the line
// printed on stderr.
struct StopRun {
  int status;
  std::string message;
};

// The command line, GoogleTest's own flags taken out of argv first.
ssp::harness::CommandLine read_command_line(int& argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  try {
    return ssp::harness::parse_command_line(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const ssp::harness::CommandLineError& wrong) {
    throw StopRun{2, std::string(argv[0]) + ": " + wrong.what() + " (see --help)"};
  }
}

// The data every test reads and what judged the run, known before any test
// runs: without them the run stops here, naming what it looked for.
struct SuiteData {
  ssp::harness::SuiteIdentity identity;
  std::vector<ssp::harness::CatalogEntry> catalog;
};

SuiteData read_suite_data(const std::string& program) {
  try {
    const auto pages =
        ssp::harness::read_catalog_pages(ssp::harness::data_path("requirements").string());
    return {ssp::harness::suite_identity(pages), ssp::harness::catalog_of(pages)};
  } catch (const std::exception& failure) {
    throw StopRun{2, program + ": " + failure.what()};
  }
}

// --list: every test the filter selects, with its sections, requirement, level
// and capabilities. should_run() reflects the filter once RUN_ALL_TESTS has
// applied it; with list_tests GoogleTest applies it and runs nothing, printing
// its own listing, which goes to /dev/null: this one replaces it.
void print_listing(const std::map<std::string, ssp::harness::CatalogTest>& cataloged) {
  GTEST_FLAG_SET(list_tests, true);
  std::fflush(stdout);
  const int saved_stdout = dup(STDOUT_FILENO);
  std::FILE* null = std::fopen("/dev/null", "w");
  if (saved_stdout < 0 || null == nullptr) throw StopRun{2, "--list: cannot set stdout aside"};
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
}

// The candidate under test, chosen before any test runs, so that a bad
// SSP_CANDIDATE stops here with a message; its name for the report. A driver
// that does not start is reported by every test instead (nullptr).
std::pair<const ssp::harness::Candidate*, std::string> start_candidate() {
#ifdef SSP_REFERENCE_ONLY
  // Self-tests pin the reference itself: another candidate is not theirs to test.
  unsetenv("SSP_CANDIDATE");
#endif
  try {
    const ssp::harness::Candidate& started = ssp::harness::current_candidate();
    return {&started, started.name()};
  } catch (const std::exception& failure) {
    return {nullptr, std::string("(did not start) ") + failure.what()};
  }
}

// The per-section report for `started`, judged by the run's settings (what
// must be exercised, the candidate's expected failures, the verdict profile),
// listening to GoogleTest, which owns it; with the progress line on a terminal.
ssp::harness::SectionReport& attach_report(
    const ssp::harness::CommandLine& line,
    const std::map<std::string, ssp::harness::CatalogTest>& cataloged) {
  const auto [started, candidate] = start_candidate();
  const auto setting = [&](const char* variable, const auto& read) {
    try {
      return read();
    } catch (const std::exception& failure) {
      throw StopRun{2, (variable != nullptr ? ssp::harness::setting_name(line, variable) + ": "
                                            : std::string()) +
                           failure.what()};
    }
  };
  auto exercise_rules =
      setting("SSP_CLAIMS", [&] { return ssp::harness::exercise_rules(started); });
  auto expectations = setting("SSP_EXPECTATIONS", [] {
    return ssp::harness::expectations_from_environment(all_test_names());
  });
  // The profile's own message names SSP_PROFILE.
  const auto profile =
      setting(nullptr, [] { return ssp::harness::verdict_profile_from_environment(); });
  auto* report =
      new ssp::harness::SectionReport(candidate, cataloged, std::move(expectations), profile);
  report->require_exercised(std::move(exercise_rules));
  ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
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
  return *report;
}

// --report-dir: junit.xml, summary.json and summary.md of the finished run.
void write_run_reports(const std::string& directory, const std::string& program,
                       const SuiteData& data, const ssp::harness::SectionReport& report,
                       int status) {
  try {
    ssp::harness::write_reports(directory, {.executable = program,
                                            .suite = data.identity,
                                            .candidate = report.candidate(),
                                            .profile = report.profile(),
                                            .exit_status = status,
                                            .tests = report.records(),
                                            .outside_tests = report.outside_tests(),
                                            .exercised = report.exercised(),
                                            .requirements = data.catalog});
  } catch (const std::exception& failure) {
    throw StopRun{2, std::string("--report-dir: ") + failure.what()};
  }
  std::printf("reports: %s/{junit.xml,summary.json,summary.md}\n", directory.c_str());
}

}  // namespace

// Exit status: 0 every test that counts passed (or failed as the candidate's
// expectations say), 1 a test that counts failed (SSP_PROFILE says which
// levels count: section_report.hpp), 2 a test erred (the candidate's driver
// broke the protocol; docs/driver-protocol.md), or a flag (command_line.hpp),
// SSP_EXPECTATIONS or SSP_PROFILE is not right, the suite's data is missing
// (data_directory.hpp), or --report-dir cannot be written.
int main(int argc, char** argv) {
  try {
    const ssp::harness::CommandLine line = read_command_line(argc, argv);
    if (line.help) {
      std::fputs(ssp::harness::command_line_help(argv[0]).c_str(), stdout);
      return 0;
    }
    for (const auto& [variable, value] : line.environment) {
      setenv(variable.c_str(), value.c_str(), 1);
    }
    const std::string program = std::filesystem::path(argv[0]).filename().string();
    const SuiteData data = read_suite_data(program);
    if (line.version) {
      std::fputs(ssp::harness::suite_version_text(program, data.identity).c_str(), stdout);
      return 0;
    }
    ssp::harness::run_deferred_registrations();  // the tests made from data (the races)
    GTEST_FLAG_SET(filter,
                   ssp::harness::filter_for_backends(GTEST_FLAG_GET(filter), line.backends));
    const auto cataloged = ssp::harness::catalog_tests(data.catalog);
    if (line.list) {
      print_listing(cataloged);
      return 0;
    }
    ssp::harness::SectionReport& report = attach_report(line, cataloged);
    const int status = report.exit_status(RUN_ALL_TESTS());
    // Driver processes kept for reuse end with the run, not at exit.
    ssp::harness::DriverPool::of_this_run().end_idle();
    if (!line.report_dir.empty()) write_run_reports(line.report_dir, program, data, report, status);
    return status;
  } catch (const StopRun& stop) {
    std::fprintf(stderr, "%s\n", stop.message.c_str());
    return stop.status;
  }
}
