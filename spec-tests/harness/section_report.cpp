#include "harness/section_report.hpp"

#include <cstdio>

namespace ssp::harness {

void SectionReport::OnTestEnd(const ::testing::TestInfo& info) {
  const ::testing::TestResult& result = *info.result();
  const std::string name = info.name();
  const auto cataloged =
      catalog_sections_.find(std::string(info.test_suite_name()) + "." + name.substr(0, name.find('/')));
  std::string section = cataloged != catalog_sections_.end() ? cataloged->second : "(no section)";
  for (int i = 0; i < result.test_property_count(); ++i) {
    if (std::string(result.GetTestProperty(i).key()) == "spec") {
      section = result.GetTestProperty(i).value();
    }
  }
  Tally& tally = by_section_[section];
  if (result.Skipped()) {
    ++tally.skipped;
  } else if (result.Failed()) {
    ++tally.failed;
  } else {
    ++tally.passed;
  }
}

void SectionReport::OnTestProgramEnd(const ::testing::UnitTest&) {
  Tally total;
  std::printf("\nSSP2 conformance by section (candidate: %s)\n", candidate_.c_str());
  std::printf("  %-14s %7s %7s %8s\n", "section", "passed", "failed", "skipped");
  for (const auto& [section, tally] : by_section_) {
    std::printf("  %-14s %7d %7d %8d%s\n", section.c_str(), tally.passed, tally.failed,
                tally.skipped, tally.failed ? "  FAILED" : "");
    total.passed += tally.passed;
    total.failed += tally.failed;
    total.skipped += tally.skipped;
  }
  std::printf("\n%d passed, %d failed, %d skipped\n", total.passed, total.failed, total.skipped);
  std::fflush(stdout);
}

}  // namespace ssp::harness
