#include "harness/verdict/section_tallies.hpp"

namespace ssp::harness {

void count_in(SectionTally& tally, const TestRecord& record) {
  // A 0.22 or reference-level test its profile does not count is reported
  // apart (columns ref-ok, ref-fail); a SHOULD one warns.
  const bool reference_apart = record.level != RequirementLevel::must &&
                               record.level != RequirementLevel::should && !record.counts;
  switch (record.outcome) {
    case TestOutcome::passed:
      ++(reference_apart ? tally.reference_passed : tally.passed);
      break;
    case TestOutcome::failed:
      if (record.counts) {
        ++tally.failed;
      } else {
        ++(record.level == RequirementLevel::should ? tally.warned : tally.reference_failed);
      }
      break;
    case TestOutcome::expected_fail:
      ++tally.expected;
      break;
    case TestOutcome::unexpected_pass:
      ++tally.failed;
      break;
    case TestOutcome::skipped:
      ++tally.skipped;
      break;
    case TestOutcome::error:
      ++(record.harness_error ? tally.harness_errors : tally.errors);
      break;
  }
}

SectionTallies tally_by_section(const std::vector<TestRecord>& records) {
  SectionTallies by_section;
  for (const TestRecord& record : records) {
    if (record.sections.empty()) count_in(by_section["(no section)"], record);
    for (const std::string& section : record.sections) count_in(by_section[section], record);
  }
  return by_section;
}

SectionTally tally_of_all(const std::vector<TestRecord>& records) {
  SectionTally total;
  for (const TestRecord& record : records) count_in(total, record);
  return total;
}

}  // namespace ssp::harness
