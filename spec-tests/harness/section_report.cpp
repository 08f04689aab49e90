#include "harness/section_report.hpp"

#include <cstdio>

#include "harness/driver_error.hpp"
#include "harness/harness_error.hpp"

namespace ssp::harness {
namespace {

// A test erred when an out-of-process candidate broke the driver protocol
// (DriverError) or the harness met its own bug (HarnessError): the exception
// records `property` (even when the test caught it and passed:
// EXPECT_ANY_THROW must not turn a crash into a pass), and its text, which
// `reports` recognises, is in the failure.
bool erred(const ::testing::TestResult& result, const char* property,
           bool (*reports)(const std::string&)) {
  for (int i = 0; i < result.test_property_count(); ++i) {
    if (std::string(result.GetTestProperty(i).key()) == property) return true;
  }
  for (int i = 0; i < result.total_part_count(); ++i) {
    const char* message = result.GetTestPartResult(i).message();
    if (result.GetTestPartResult(i).failed() && message && reports(message)) return true;
  }
  return false;
}

// Every message of `result`'s parts that `keep` selects, joined by "; ",
// without the "Failed\n" that ADD_FAILURE() and FAIL() put first.
template <typename Keep>
std::string messages(const ::testing::TestResult& result, Keep keep) {
  std::string joined;
  for (int i = 0; i < result.total_part_count(); ++i) {
    const ::testing::TestPartResult& part = result.GetTestPartResult(i);
    if (!keep(part)) continue;
    std::string message = part.message();
    if (message.starts_with("Failed\n")) message.erase(0, 7);
    joined += (joined.empty() ? "" : "; ") + message;
  }
  return joined;
}

std::string failure_messages(const ::testing::TestResult& result) {
  return messages(result, [](const ::testing::TestPartResult& part) { return part.failed(); });
}

std::string profile_line(VerdictProfile profile) {
  if (profile == VerdictProfile::reference) {
    return "profile reference: every level's failures count, reference-level ones included";
  }
  return "profile spec: MUST failures count; SSP_PROFILE=reference counts every level";
}

}  // namespace

void SectionReport::OnTestEnd(const ::testing::TestInfo& info) {
  const ::testing::TestResult& result = *info.result();
  const std::string name = std::string(info.test_suite_name()) + "." + info.name();
  const auto cataloged = catalog_.find(catalog_test_name(info.test_suite_name(), info.name()));
  std::string section = cataloged != catalog_.end() ? cataloged->second.section : "(no section)";
  const RequirementLevel level =
      cataloged != catalog_.end() ? cataloged->second.level : RequirementLevel::must;
  for (int i = 0; i < result.test_property_count(); ++i) {
    if (std::string(result.GetTestProperty(i).key()) == "spec") {
      section = result.GetTestProperty(i).value();
    }
  }
  SectionTally& tally = by_section_[section];
  const auto expected = expectations_.find(name);
  if (erred(result, "harness_error", reports_harness_error)) {
    // Before the driver's errors: a harness bug may surface as a driver call.
    ++tally.harness_errors;
    ++errors_;
    notes_.harness_errors.push_back({name, failure_messages(result)});
  } else if (erred(result, "driver_error", reports_driver_error)) {
    ++tally.errors;
    ++errors_;
  } else if (result.Skipped()) {
    ++tally.skipped;
    const std::string reason =
        messages(result, [](const ::testing::TestPartResult& part) { return part.skipped(); });
    skipped_.push_back({name, reason.empty() ? "(no reason given)" : reason});
    if (expected != expectations_.end()) {
      notes_.stale.push_back({name, "skipped, so the entry excuses nothing (" +
                                        expected->second.reason + ")"});
    }
  } else if (expected != expectations_.end()) {
    if (result.Failed()) {
      ++tally.expected;
      ++excused_;
      notes_.expected_failures.push_back({name, expected->second.reason});
    } else {
      ++tally.failed;
      ++failed_;
      notes_.unexpected_passes.push_back(
          {name, "passed, but the expectations file says: " + expected->second.reason});
    }
  } else if (!result.Failed()) {
    ++(level == RequirementLevel::reference && profile_ == VerdictProfile::spec
           ? tally.reference_passed
           : tally.passed);
  } else if (failure_fails_the_run(profile_, level)) {
    ++tally.failed;
    ++failed_;
  } else {
    ++(level == RequirementLevel::should ? tally.warned : tally.reference_failed);
    ++excused_;
  }
}

void SectionReport::OnTestSuiteEnd(const ::testing::TestSuite& suite) {
  // A failure in SetUpTestSuite / TearDownTestSuite belongs to no test.
  if (suite.ad_hoc_test_result().Failed()) {
    notes_.outside_tests.push_back(
        {std::string(suite.name()) + " (suite set-up or tear-down)",
         failure_messages(suite.ad_hoc_test_result())});
  }
}

void SectionReport::OnTestProgramEnd(const ::testing::UnitTest& unit) {
  // A failure in a global environment, or anywhere GoogleTest cannot tie to a test.
  if (unit.ad_hoc_test_result().Failed()) {
    notes_.outside_tests.push_back(
        {"(the test program, outside every suite)", failure_messages(unit.ad_hoc_test_result())});
  }
  notes_.profile_line = profile_line(profile_);
  std::printf("\ncandidate under test: %s\n", candidate_.c_str());
  std::fputs(format_section_table(by_section_, skipped_, notes_).c_str(), stdout);
  std::fflush(stdout);
}

int SectionReport::exit_status(int googletest_status) const {
  if (errors_ > 0) return 2;
  if (failed_ > 0 || !notes_.outside_tests.empty()) return 1;
  // GoogleTest fails the run for every failed test, excused ones included.
  // When no test failed at all, its failure has a cause this report did not
  // see, and it stands.
  if (excused_ == 0) return googletest_status;
  return 0;
}

}  // namespace ssp::harness
