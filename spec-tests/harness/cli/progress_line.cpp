#include "harness/cli/progress_line.hpp"

#include <cstdio>

namespace ssp::harness {

std::string progress_text(int done, int total, const std::string& section, const std::string& test,
                          int columns) {
  const int width = static_cast<int>(std::to_string(total).size());
  char counter[48];
  std::snprintf(counter, sizeof counter, "[%*d/%d] ", width, done, total);
  std::string line = counter + section + " " + test;
  // Cut at the code point that would pass the last column.
  std::size_t used = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if ((static_cast<unsigned char>(line[i]) & 0xc0) == 0x80) continue;
    if (used == static_cast<std::size_t>(columns > 1 ? columns - 1 : 1)) return line.substr(0, i);
    ++used;
  }
  return line;
}

void ProgressLine::OnTestProgramStart(const ::testing::UnitTest& unit) {
  total_ = unit.test_to_run_count();
}

void ProgressLine::OnTestStart(const ::testing::TestInfo& info) {
  const auto row = catalog_.find(catalog_test_name(info.test_suite_name(), info.name()));
  const std::string section = row == catalog_.end() ? "" : row->second.section;
  const std::string text = progress_text(
      started_, total_, section, std::string(info.test_suite_name()) + "." + info.name(), columns_);
  ++started_;
  // \r and "erase to the end of the line": the shorter line leaves no tail.
  std::fprintf(stderr, "\r%s\x1b[K", text.c_str());
  std::fflush(stderr);
}

void ProgressLine::OnTestEnd(const ::testing::TestInfo&) {
  // GoogleTest calls end events in reverse order, this listener before its
  // printer: a failure it prints starts on a clean line.
  std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
}

}  // namespace ssp::harness
