// Prints, after the run, passed / failed / skipped per SSP2 section (from the
// "spec" property each test records) and a closing "N passed, N failed" line.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace ssp::harness {

class SectionReport final : public ::testing::EmptyTestEventListener {
 public:
  void OnTestEnd(const ::testing::TestInfo& info) override;
  void OnTestProgramEnd(const ::testing::UnitTest& unit) override;

 private:
  struct Tally {
    int passed = 0;
    int failed = 0;
    int skipped = 0;
  };
  std::map<std::string, Tally> by_section_;
};

}  // namespace ssp::harness
