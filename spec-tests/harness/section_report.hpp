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

#include "harness/section_table.hpp"

namespace ssp::harness {

class SectionReport final : public ::testing::EmptyTestEventListener {
 public:
  // `candidate`: the name of the candidate under test.
  // `catalog_sections`: "Suite.Test" (no parameter suffix) → section.
  SectionReport(std::string candidate, std::map<std::string, std::string> catalog_sections)
      : candidate_(std::move(candidate)), catalog_sections_(std::move(catalog_sections)) {}

  void OnTestEnd(const ::testing::TestInfo& info) override;
  void OnTestProgramEnd(const ::testing::UnitTest& unit) override;

  // Tests that ended in a driver error so far.
  int errors() const { return errors_; }

 private:
  std::string candidate_;
  std::map<std::string, std::string> catalog_sections_;
  std::map<std::string, SectionTally> by_section_;
  std::vector<SkippedTest> skipped_;
  int errors_ = 0;
};

}  // namespace ssp::harness
