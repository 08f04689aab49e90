// The reference through ssp-reference-driver passes exactly what it passes in
// process (issue 9 part 4): CTest runs the conformance suite both ways and
// hands the two JSON results to HARNESS-10.
#include <gmock/gmock.h>

#include <cstdlib>
#include <sstream>

#include "harness/catalog/spec.hpp"
#include "harness/util/file_text.hpp"
#include "run_results.hpp"

namespace ssp::driver_tests {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// The results of the run whose JSON files `paths` names, ':' between them
// (one file per shard). A test in two files is a failure of the test.
RunResults results_of(const std::string& paths) {
  RunResults merged;
  std::istringstream list(paths);
  for (std::string path; std::getline(list, path, ':');) {
    for (const auto& [test, outcome] : parse_run_results(harness::read_text_file(path))) {
      if (!merged.emplace(test, outcome).second) ADD_FAILURE() << test << " ran twice, again in " << path;
    }
  }
  return merged;
}

TEST(DriverRuns, HARNESS_10_TheReferenceDriverPassesWhatTheReferencePasses) {
  harness::record_spec("Driver", "HARNESS-10");
  const char* in_process_path = std::getenv("SSP_RESULTS_IN_PROCESS");
  const char* driver_path = std::getenv("SSP_RESULTS_DRIVER");
  if (in_process_path == nullptr || driver_path == nullptr) {
    GTEST_SKIP() << "CTest runs this after the conformance and conformance-driver-* tests, with "
                    "SSP_RESULTS_IN_PROCESS and SSP_RESULTS_DRIVER naming their JSON results "
                    "(several files separated by ':')";
  }
  const RunResults in_process = results_of(in_process_path);
  const RunResults driver = results_of(driver_path);
  ASSERT_FALSE(in_process.empty()) << in_process_path;
  int passed = 0;
  for (const auto& [test, outcome] : driver) passed += outcome == Outcome::passed ? 1 : 0;
  EXPECT_GT(passed, 0) << "the driver run passed nothing";
  for (const std::string& difference : compare_runs(in_process, driver)) {
    ADD_FAILURE() << difference;
  }
}

TEST(DriverRuns, HARNESS_11_TheComparisonFindsEachKindOfDisagreement) {
  harness::record_spec("Driver", "HARNESS-11");
  const RunResults in_process = {{"S.Passes", Outcome::passed},
                                 {"S.PassesButFails", Outcome::passed},
                                 {"S.PassesButErrs", Outcome::passed},
                                 {"S.PassesButSkips", Outcome::passed},
                                 {"S.SkipsButPasses", Outcome::skipped},
                                 {"S.FailsAnyway", Outcome::failed},
                                 {"S.PushPath", Outcome::passed},
                                 {"S.Missing", Outcome::passed}};
  // The push path skipped through the driver is a difference like any other
  // (protocol version 1 had no push methods, and this once excused it).
  const RunResults driver = {{"S.Passes", Outcome::passed},
                             {"S.PassesButFails", Outcome::failed},
                             {"S.PassesButErrs", Outcome::errored},
                             {"S.PassesButSkips", Outcome::skipped},
                             {"S.SkipsButPasses", Outcome::passed},
                             {"S.FailsAnyway", Outcome::errored},
                             {"S.PushPath", Outcome::skipped},
                             {"S.Extra", Outcome::passed}};
  EXPECT_THAT(compare_runs(in_process, driver),
              ElementsAre("S.Missing: passed in process, not run through the driver",
                          "S.PassesButErrs: passed in process, errored through the driver",
                          "S.PassesButFails: passed in process, failed through the driver",
                          "S.PassesButSkips: passed in process, skipped through the driver",
                          "S.PushPath: passed in process, skipped through the driver",
                          "S.SkipsButPasses: skipped in process, passed through the driver",
                          "S.Extra: passed through the driver, not run in process"));
  EXPECT_THAT(compare_runs(in_process, in_process), IsEmpty());
}

TEST(DriverRuns, HARNESS_11_ResultsAreReadFromGoogleTestJson) {
  harness::record_spec("Driver", "HARNESS-11");
  const std::string json = R"({"testsuites": [{"name": "S", "testsuite": [
    {"name": "A/memory", "classname": "S", "result": "COMPLETED"},
    {"name": "B", "classname": "S", "result": "COMPLETED", "failures": [{"failure": "x.cpp:3\nExpected"}]},
    {"name": "C", "classname": "S", "result": "COMPLETED",
     "failures": [{"failure": "C++ exception with description \"driver error: segments.put: boom\""}]},
    {"name": "D", "classname": "S", "result": "COMPLETED", "driver_error": "driver error: x",
     "failures": [{"failure": "elsewhere"}]},
    {"name": "E", "classname": "S", "result": "SKIPPED"},
    {"name": "G/sqlite", "classname": "S", "result": "SKIPPED", "missing_capability": "push"},
    {"name": "H", "classname": "S", "result": "SKIPPED", "missing_capability": "hooks"},
    {"name": "F", "classname": "S", "result": "COMPLETED", "driver_error": "driver error: caught"}]}]})";
  EXPECT_EQ(parse_run_results(json), (RunResults{{"S.A/memory", Outcome::passed},
                                                 {"S.B", Outcome::failed},
                                                 {"S.C", Outcome::errored},
                                                 {"S.D", Outcome::errored},
                                                 {"S.E", Outcome::skipped},
                                                 {"S.G/sqlite", Outcome::skipped},
                                                 {"S.H", Outcome::skipped},
                                                 {"S.F", Outcome::errored}}));
  EXPECT_THROW(parse_run_results("{}"), std::runtime_error);
}

}  // namespace
}  // namespace ssp::driver_tests
