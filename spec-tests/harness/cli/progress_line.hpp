// On a terminal, a long run shows where it is: one line on stderr, rewritten
// as each test starts, with the tests done out of the total and the section
// the running test checks ("[ 120/1012] §5.1 SegmentMerge.R11_…/sqlite").
// The line is cleared as each test ends, so what GoogleTest prints then, and
// the report after the run, read as without it. Installed only when stderr
// is a terminal and GoogleTest does not print every test to the same
// terminal (main.cpp): a CI log gets no carriage returns.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "harness/catalog/catalog.hpp"

namespace ssp::harness {

class ProgressLine final : public ::testing::EmptyTestEventListener {
 public:
  // `catalog`: "Suite.Test" → its row, for the section; `columns`: the
  // terminal's width, the line is cut to it.
  ProgressLine(std::map<std::string, CatalogTest> catalog, int columns)
      : catalog_(std::move(catalog)), columns_(columns) {}

  void OnTestProgramStart(const ::testing::UnitTest& unit) override;
  void OnTestStart(const ::testing::TestInfo& info) override;
  void OnTestEnd(const ::testing::TestInfo& info) override;

 private:
  std::map<std::string, CatalogTest> catalog_;
  int columns_;
  int total_ = 0;
  int started_ = 0;
};

// The text of the line: "[DONE/TOTAL] SECTION NAME", at most `columns`
// display columns (cut at a code point).
std::string progress_text(int done, int total, const std::string& section, const std::string& test,
                          int columns);

}  // namespace ssp::harness
