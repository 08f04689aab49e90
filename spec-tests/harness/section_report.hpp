// Prints, after the run, the candidate's name, passed / failed / errors /
// skipped per SSP2 section, a closing "N passed, N failed, N errors, N skipped"
// line and every skipped test with its reason (section_table.hpp). An error is
// a failed test whose out-of-process candidate broke the driver protocol
// (DriverError), counted apart from failed assertions. A test's section is the
// "spec" property it records; a test skipped before recording it (backend not
// available) is counted under the section the catalog gives it.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "harness/expectations.hpp"
#include "harness/section_table.hpp"

namespace ssp::harness {

class SectionReport final : public ::testing::EmptyTestEventListener {
 public:
  // `candidate`: the name of the candidate under test.
  // `catalog_sections`: "Suite.Test" (no parameter suffix) → section.
  // `expectations`: the candidate's expected failures (expectations.hpp).
  SectionReport(std::string candidate, std::map<std::string, std::string> catalog_sections,
                Expectations expectations = {})
      : candidate_(std::move(candidate)),
        catalog_sections_(std::move(catalog_sections)),
        expectations_(std::move(expectations)) {}

  void OnTestEnd(const ::testing::TestInfo& info) override;
  void OnTestProgramEnd(const ::testing::UnitTest& unit) override;

  // The run's exit status once every test ended: 2 when a test erred, 1 when
  // a test failed unexpectedly or an expected failure passed, 0 when every
  // failure was expected, else `googletest_status` (RUN_ALL_TESTS()).
  int exit_status(int googletest_status) const;

 private:
  std::string candidate_;
  std::map<std::string, std::string> catalog_sections_;
  std::map<std::string, SectionTally> by_section_;
  Expectations expectations_;
  std::vector<SkippedTest> skipped_;
  ExpectationNotes notes_;
  int errors_ = 0;
  int failed_ = 0;  // failed without being expected, or expected but passed
};

}  // namespace ssp::harness
