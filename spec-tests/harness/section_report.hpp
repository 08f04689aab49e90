// Prints, after the run, the candidate's name, the outcomes per SSP2 section,
// a closing "N passed, N failed, N skipped" line and every skipped, excused or
// stale test with its reason (section_table.hpp), and decides the run's exit
// status.
//
// What counts (docs/harness.md, "The verdict"): a test's level comes from its
// catalog row (requirement_level.hpp), and the profile (verdict_profile.hpp)
// says which levels' failures fail the run. An error is a failed test whose
// out-of-process candidate broke the driver protocol (DriverError), or a
// harness error (HarnessError: the suite's own bug, listed apart so the
// candidate is not blamed); either fails the run. An expected failure (expectations.hpp) excuses only the test
// it names. A failure GoogleTest records outside every test fails the run.
// A test's section is the "spec" property it records; a test skipped before
// recording it (backend not available) is counted under the section the
// catalog gives it.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "harness/catalog.hpp"
#include "harness/expectations.hpp"
#include "harness/section_table.hpp"
#include "harness/verdict_profile.hpp"

namespace ssp::harness {

class SectionReport final : public ::testing::EmptyTestEventListener {
 public:
  // `candidate`: the name of the candidate under test.
  // `catalog`: "Suite.Test" (no parameter suffix) → section and level; a test
  //   it does not list is MUST (the catalog check reports it).
  // `expectations`: the candidate's expected failures (expectations.hpp).
  SectionReport(std::string candidate, std::map<std::string, CatalogTest> catalog,
                Expectations expectations = {}, VerdictProfile profile = VerdictProfile::spec)
      : candidate_(std::move(candidate)),
        catalog_(std::move(catalog)),
        expectations_(std::move(expectations)),
        profile_(profile) {}

  void OnTestEnd(const ::testing::TestInfo& info) override;
  void OnTestSuiteEnd(const ::testing::TestSuite& suite) override;
  void OnTestProgramEnd(const ::testing::UnitTest& unit) override;

  // The run's exit status once every test ended (`googletest_status` is
  // RUN_ALL_TESTS()): 2 when a test erred; 1 when a failure that counts under
  // the profile was not expected, an expected failure passed, or a failure
  // happened outside every test; `googletest_status` when GoogleTest failed
  // the run for a reason no test and no suite recorded; else 0.
  int exit_status(int googletest_status) const;

 private:
  std::string candidate_;
  std::map<std::string, CatalogTest> catalog_;
  std::map<std::string, SectionTally> by_section_;
  Expectations expectations_;
  VerdictProfile profile_;
  std::vector<SkippedTest> skipped_;
  ExpectationNotes notes_;
  int errors_ = 0;
  int failed_ = 0;  // failures that count, unexpected; expected failures that passed
  int excused_ = 0;  // failures that do not fail the run: expected, warned, reference level
};

}  // namespace ssp::harness
