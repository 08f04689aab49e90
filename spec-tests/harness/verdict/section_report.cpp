#include "harness/verdict/section_report.hpp"

#include <cstdio>
#include <optional>

#include "harness/catalog/section_ids.hpp"
#include "harness/errors/driver_error.hpp"
#include "harness/errors/harness_error.hpp"
#include "harness/verdict/section_tallies.hpp"

namespace ssp::harness {
namespace {

// The value of the gtest property `key` the test recorded (the last one), if any.
std::optional<std::string> property_of(const ::testing::TestResult& result, const char* key) {
  std::optional<std::string> value;
  for (int i = 0; i < result.test_property_count(); ++i) {
    if (std::string(result.GetTestProperty(i).key()) == key) {
      value = result.GetTestProperty(i).value();
    }
  }
  return value;
}

// A test erred when an out-of-process candidate broke the driver protocol
// (DriverError) or the harness met its own bug (HarnessError): the exception
// records `property` (even when the test caught it and passed:
// EXPECT_ANY_THROW must not turn a crash into a pass), and its text, which
// `reports` recognises, is in the failure.
bool erred(const ::testing::TestResult& result, const char* property,
           bool (*reports)(const std::string&)) {
  if (property_of(result, property)) return true;
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
  switch (profile) {
    case VerdictProfile::reference:
      return "profile reference: every level's failures count, reference-level ones included";
    case VerdictProfile::release:
      return "profile 0.22: MUST and 0.22 failures count; SSP_PROFILE=reference counts every "
             "level";
    case VerdictProfile::spec:
      break;
  }
  return "profile spec: MUST failures count; SSP_PROFILE=0.22 adds the 0.22 release's rows, "
         "SSP_PROFILE=reference every level";
}

}  // namespace

void SectionReport::OnTestEnd(const ::testing::TestInfo& info) {
  const ::testing::TestResult& result = *info.result();
  TestRecord record;
  record.name = std::string(info.test_suite_name()) + "." + info.name();
  record.catalog_name = catalog_test_name(info.test_suite_name(), info.name());
  record.backend = backend_of_test(record.name);
  record.seconds = static_cast<double>(result.elapsed_time()) / 1000.0;
  std::string section = "(no section)";
  if (const auto cataloged = catalog_.find(record.catalog_name); cataloged != catalog_.end()) {
    record.requirement = cataloged->second.requirement;
    record.level = cataloged->second.level;
    section = cataloged->second.section;
  }
  if (const auto recorded = property_of(result, "spec")) section = *recorded;
  record.sections = section_ids(section);
  record.missing_capability = property_of(result, "missing_capability");
  record.counts = failure_fails_the_run(profile_, record.level);

  const auto expected = expectations_.find(record.name);
  if (erred(result, "harness_error", reports_harness_error)) {
    // Before the driver's errors: a harness bug may surface as a driver call.
    record.outcome = TestOutcome::error;
    record.harness_error = true;
    record.reason = failure_messages(result);
    notes_.harness_errors.push_back({record.name, record.reason});
  } else if (erred(result, "driver_error", reports_driver_error)) {
    record.outcome = TestOutcome::error;
    record.reason = failure_messages(result);
  } else if (result.Skipped()) {
    record.outcome = TestOutcome::skipped;
    const std::string reason =
        messages(result, [](const ::testing::TestPartResult& part) { return part.skipped(); });
    record.reason = reason.empty() ? "(no reason given)" : reason;
    skipped_.push_back({record.name, record.reason});
    if (expected != expectations_.end()) {
      notes_.stale.push_back(
          {record.name, "skipped, so the entry excuses nothing (" + expected->second.reason + ")"});
    }
  } else if (expected != expectations_.end()) {
    if (result.Failed()) {
      record.outcome = TestOutcome::expected_fail;
      record.reason = expected->second.reason;
      notes_.expected_failures.push_back({record.name, record.reason});
    } else {
      record.outcome = TestOutcome::unexpected_pass;
      record.reason = "passed, but the expectations file says: " + expected->second.reason;
      notes_.unexpected_passes.push_back({record.name, record.reason});
    }
  } else if (result.Failed()) {
    record.outcome = TestOutcome::failed;
    record.reason = failure_messages(result);
  }
  records_.push_back(std::move(record));
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
  googletest_failed_tests_ = unit.failed_test_count();
  notes_.profile_line = profile_line(profile_);
  std::printf("\ncandidate under test: %s\n", candidate_.c_str());
  std::fputs(
      format_section_table(tally_by_section(records_), tally_of_all(records_), skipped_, notes_)
          .c_str(),
      stdout);
  if (exercise_rules_) {
    exercised_ = what_was_exercised(records_, *exercise_rules_);
    std::fputs(format_exercised(exercised_).c_str(), stdout);
  }
  std::fflush(stdout);
}

int run_exit_status(const SectionTally& total, bool failed_outside_tests,
                    int googletest_failed_tests, int googletest_status) {
  if (total.errors + total.harness_errors > 0) return 2;
  if (total.failed > 0 || failed_outside_tests) return 1;
  // Failures that do not fail the run: expected, warned, reference level.
  // GoogleTest fails the run for each of them too, so its status alone cannot
  // say whether anything else failed; its count of failed tests can.
  const int excused = total.expected + total.warned + total.reference_failed;
  if (googletest_failed_tests > excused) return 1;
  // When no test failed at all, GoogleTest's failure has a cause this report
  // did not see, and it stands.
  if (excused == 0) return googletest_status;
  return 0;
}

int SectionReport::exit_status(int googletest_status) const {
  if (!exercised_.not_exercised.empty()) return 2;
  return run_exit_status(tally_of_all(records_), !notes_.outside_tests.empty(),
                         googletest_failed_tests_, googletest_status);
}

}  // namespace ssp::harness
