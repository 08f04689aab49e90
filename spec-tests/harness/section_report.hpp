// Prints, after the run, the candidate's name, passed / failed / skipped per
// SSP2 section and a closing "N passed, N failed, N skipped" line. A test's section is the "spec"
// property it records; a test skipped before recording it (backend not
// available) is counted under the section the catalog gives it.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace ssp::harness {

class SectionReport final : public ::testing::EmptyTestEventListener {
 public:
  // `candidate`: the name of the candidate under test.
  // `catalog_sections`: "Suite.Test" (no parameter suffix) → section.
  SectionReport(std::string candidate, std::map<std::string, std::string> catalog_sections)
      : candidate_(std::move(candidate)), catalog_sections_(std::move(catalog_sections)) {}

  void OnTestEnd(const ::testing::TestInfo& info) override;
  void OnTestProgramEnd(const ::testing::UnitTest& unit) override;

 private:
  struct Tally {
    int passed = 0;
    int failed = 0;
    int skipped = 0;
  };
  std::string candidate_;
  std::map<std::string, std::string> catalog_sections_;
  std::map<std::string, Tally> by_section_;
};

}  // namespace ssp::harness
