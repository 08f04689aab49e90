#include "harness/section_report.hpp"

#include <cstdio>

#include "harness/driver_error.hpp"

namespace ssp::harness {
namespace {

// A test erred when an out-of-process candidate broke the driver protocol:
// DriverError records the property (even when the test caught the exception
// and passed: EXPECT_ANY_THROW must not turn a crash into a pass), and its
// text is in the failure.
bool erred(const ::testing::TestResult& result) {
  for (int i = 0; i < result.test_property_count(); ++i) {
    if (std::string(result.GetTestProperty(i).key()) == "driver_error") return true;
  }
  for (int i = 0; i < result.total_part_count(); ++i) {
    const char* message = result.GetTestPartResult(i).message();
    if (result.GetTestPartResult(i).failed() && message && reports_driver_error(message)) {
      return true;
    }
  }
  return false;
}

}  // namespace

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
  if (erred(result)) {
    ++tally.errors;
    ++errors_;
  } else if (result.Skipped()) {
    ++tally.skipped;
    std::string reason;
    for (int i = 0; i < result.total_part_count(); ++i) {
      const ::testing::TestPartResult& part = result.GetTestPartResult(i);
      if (part.skipped()) reason += (reason.empty() ? "" : "; ") + std::string(part.message());
    }
    skipped_.push_back({suite + "." + name, reason.empty() ? "(no reason given)" : reason});
  } else {
    const auto expected = expectations_.find(suite + "." + name);
    if (expected == expectations_.end()) {
      ++(result.Failed() ? tally.failed : tally.passed);
      failed_ += result.Failed() ? 1 : 0;
    } else if (result.Failed()) {
      ++tally.expected;
      notes_.expected_failures.push_back({expected->first, expected->second.reason});
    } else {
      ++tally.failed;
      ++failed_;
      notes_.unexpected_passes.push_back(
          {expected->first, "passed, but the expectations file says: " + expected->second.reason});
    }
  }
}

int SectionReport::exit_status(int googletest_status) const {
  if (errors_ > 0) return 2;
  if (failed_ > 0) return 1;
  // GoogleTest fails the run for expected failures too; anything else it
  // failed for (a failure outside every test) still counts.
  return notes_.expected_failures.empty() ? googletest_status : 0;
}

void SectionReport::OnTestProgramEnd(const ::testing::UnitTest&) {
  std::printf("\ncandidate under test: %s\n", candidate_.c_str());
  std::fputs(format_section_table(by_section_, skipped_, notes_).c_str(), stdout);
  std::fflush(stdout);
}

}  // namespace ssp::harness
