// Records every test as it ends (test_record.hpp), prints after the run the
// candidate's name, the outcomes per SSP2 section, a closing "N passed, N
// failed, N skipped" line and every skipped, excused or stale test with its
// reason (section_table.hpp), and decides the run's exit status. The reports
// of --report-dir are written from the same records (report_files.hpp).
//
// What counts (docs/harness.md, "The verdict"): a test's level comes from its
// catalog row (requirement_level.hpp), and the profile (verdict_profile.hpp)
// says which levels' failures fail the run. An error is a failed test whose
// out-of-process candidate broke the driver protocol (DriverError), or a
// harness error (HarnessError: the suite's own bug, listed apart so the
// candidate is not blamed); either fails the run. An expected failure
// (expectations.hpp) excuses only the test it names. A failure GoogleTest
// records outside every test fails the run.
// A test's sections are those of the "spec" property it records
// (record_spec), or, for a test skipped before recording it (backend not
// available), those of its catalog row; it counts under each.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/catalog/catalog.hpp"
#include "harness/verdict/exercised.hpp"
#include "harness/verdict/expectations.hpp"
#include "harness/verdict/section_table.hpp"
#include "harness/verdict/section_tallies.hpp"
#include "harness/verdict/test_record.hpp"
#include "harness/verdict/verdict_profile.hpp"

namespace ssp::harness {

// The exit status of a run whose records add up to `total`:
//  - 2 when a test erred;
//  - 1 when a failure that counts under the profile was not expected, an
//    expected failure passed, or `failed_outside_tests` (a failure GoogleTest
//    recorded outside every test);
//  - 1 when GoogleTest counts more failed tests (`googletest_failed_tests`)
//    than the records excuse (expected, warned, reference-level): a failure
//    this report did not see, which an excused one must not hide;
//  - `googletest_status` (RUN_ALL_TESTS()) when nothing was excused, so that a
//    failure GoogleTest saw and no test recorded stands;
//  - else 0.
int run_exit_status(const SectionTally& total, bool failed_outside_tests,
                    int googletest_failed_tests, int googletest_status);

class SectionReport final : public ::testing::EmptyTestEventListener {
 public:
  // `candidate`: the name of the candidate under test.
  // `catalog`: "Suite.Test" (no parameter suffix) → requirement, section and
  //   level; a test it does not list is MUST (the catalog check reports it).
  // `expectations`: the candidate's expected failures (expectations.hpp).
  SectionReport(std::string candidate, std::map<std::string, CatalogTest> catalog,
                Expectations expectations = {}, VerdictProfile profile = VerdictProfile::spec)
      : candidate_(std::move(candidate)),
        catalog_(std::move(catalog)),
        expectations_(std::move(expectations)),
        profile_(profile) {}

  // Judge what the run exercised by `rules` (exercised.hpp): a run that
  // exercised too little exits 2. Without it nothing is judged so, as in the
  // report's own tests of its formatting.
  void require_exercised(ExerciseRules rules) { exercise_rules_ = std::move(rules); }

  void OnTestEnd(const ::testing::TestInfo& info) override;
  void OnTestSuiteEnd(const ::testing::TestSuite& suite) override;
  void OnTestProgramEnd(const ::testing::UnitTest& unit) override;

  // The run's exit status once every test ended (`googletest_status` is
  // RUN_ALL_TESTS()): run_exit_status of the records, the failures outside
  // every test and the failed tests GoogleTest counted; 2 when the run did not
  // exercise what require_exercised asks.
  int exit_status(int googletest_status) const;

  // What the run exercised, once it ended (nothing without require_exercised).
  const Exercised& exercised() const { return exercised_; }

  // Every test that ended, in the order it ended.
  const std::vector<TestRecord>& records() const { return records_; }
  // Failures GoogleTest recorded outside every test, named by where.
  const std::vector<NotedTest>& outside_tests() const { return notes_.outside_tests; }
  const std::string& candidate() const { return candidate_; }
  VerdictProfile profile() const { return profile_; }

 private:
  std::string candidate_;
  std::map<std::string, CatalogTest> catalog_;
  Expectations expectations_;
  VerdictProfile profile_;
  std::vector<TestRecord> records_;
  int googletest_failed_tests_ = 0;  // as GoogleTest counted them at the end
  std::optional<ExerciseRules> exercise_rules_;
  Exercised exercised_;
  std::vector<SkippedTest> skipped_;
  ExpectationNotes notes_;
};

}  // namespace ssp::harness
