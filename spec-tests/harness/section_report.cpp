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
  const auto cataloged =
      catalog_sections_.find(std::string(info.test_suite_name()) + "." + name.substr(0, name.find('/')));
  std::string section = cataloged != catalog_sections_.end() ? cataloged->second : "(no section)";
  for (int i = 0; i < result.test_property_count(); ++i) {
    if (std::string(result.GetTestProperty(i).key()) == "spec") {
      section = result.GetTestProperty(i).value();
    }
  }
  Tally& tally = by_section_[section];
  if (erred(result)) {
    ++tally.errors;
    ++errors_;
  } else if (result.Skipped()) {
    ++tally.skipped;
  } else if (result.Failed()) {
    ++tally.failed;
  } else {
    ++tally.passed;
  }
}

void SectionReport::OnTestProgramEnd(const ::testing::UnitTest&) {
  Tally total;
  std::printf("\nSSP2 conformance by section\n");
  std::printf("  %-14s %7s %7s %7s %8s\n", "section", "passed", "failed", "errors", "skipped");
  for (const auto& [section, tally] : by_section_) {
    std::printf("  %-14s %7d %7d %7d %8d%s\n", section.c_str(), tally.passed, tally.failed,
                tally.errors, tally.skipped,
                tally.errors ? "  ERROR" : (tally.failed ? "  FAILED" : ""));
    total.passed += tally.passed;
    total.failed += tally.failed;
    total.errors += tally.errors;
    total.skipped += tally.skipped;
  }
  std::printf("\n%d passed, %d failed, %d errors, %d skipped\n", total.passed, total.failed,
              total.errors, total.skipped);
  if (total.errors > 0) {
    std::printf("errors: the candidate's driver broke the protocol (docs/driver-protocol.md)\n");
  }
  std::fflush(stdout);
}

}  // namespace ssp::harness
