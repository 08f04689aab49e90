// Prints, after the run, passed / failed / errors / skipped per SSP2 section
// and a closing "N passed, N failed, N errors, N skipped" line. An error is a
// failed test whose out-of-process candidate broke the driver protocol
// (DriverError), counted apart from failed assertions. A test's section is the "spec"
// property it records; a test skipped before recording it (backend not
// available) is counted under the section the catalog gives it.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace ssp::harness {

class SectionReport final : public ::testing::EmptyTestEventListener {
 public:
  // `catalog_sections`: "Suite.Test" (no parameter suffix) → section.
  explicit SectionReport(std::map<std::string, std::string> catalog_sections)
      : catalog_sections_(std::move(catalog_sections)) {}

  void OnTestEnd(const ::testing::TestInfo& info) override;
  void OnTestProgramEnd(const ::testing::UnitTest& unit) override;

  // Tests that ended in a driver error so far.
  int errors() const { return errors_; }

 private:
  struct Tally {
    int passed = 0;
    int failed = 0;
    int skipped = 0;
    int errors = 0;
  };
  std::map<std::string, std::string> catalog_sections_;
  std::map<std::string, Tally> by_section_;
  int errors_ = 0;
};

}  // namespace ssp::harness
