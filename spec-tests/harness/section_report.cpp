#include "harness/section_report.hpp"

#include <cstdio>

namespace ssp::harness {

void SectionReport::OnTestEnd(const ::testing::TestInfo& info) {
  const ::testing::TestResult& result = *info.result();
  const std::string name = info.name();
  const std::string suite = info.test_suite_name();
  const auto cataloged = catalog_sections_.find(suite + "." + name.substr(0, name.find('/')));
  std::string section = cataloged != catalog_sections_.end() ? cataloged->second : "(no section)";
  for (int i = 0; i < result.test_property_count(); ++i) {
    if (std::string(result.GetTestProperty(i).key()) == "spec") {
      section = result.GetTestProperty(i).value();
    }
  }
  SectionTally& tally = by_section_[section];
  if (result.Skipped()) {
    ++tally.skipped;
    std::string reason;
    for (int i = 0; i < result.total_part_count(); ++i) {
      const ::testing::TestPartResult& part = result.GetTestPartResult(i);
      if (part.skipped()) reason += (reason.empty() ? "" : "; ") + std::string(part.message());
    }
    skipped_.push_back({suite + "." + name, reason.empty() ? "(no reason given)" : reason});
  } else if (result.Failed()) {
    ++tally.failed;
  } else {
    ++tally.passed;
  }
}

void SectionReport::OnTestProgramEnd(const ::testing::UnitTest&) {
  std::printf("\ncandidate under test: %s\n", candidate_.c_str());
  std::fputs(format_section_table(by_section_, skipped_).c_str(), stdout);
  std::fflush(stdout);
}

}  // namespace ssp::harness
