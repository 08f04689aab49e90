// Outcomes counted per SSP2 section: the numbers of the section table
// (section_table.hpp) and of summary.md. A test counts once under each section
// it names (test_record.hpp) and once in the total, so a test of two sections
// adds to two rows but to the closing line once.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/catalog/section_ids.hpp"
#include "harness/verdict/test_record.hpp"

namespace ssp::harness {

struct SectionTally {
  int passed = 0;
  int failed = 0;  // failures that fail the run under its profile
  int skipped = 0;
  int errors = 0;          // the candidate's driver broke the protocol (driver_error.hpp)
  int harness_errors = 0;  // a bug of the suite, not the candidate's (harness_error.hpp)
  int expected = 0;        // failed as the candidate's expectations say (expectations.hpp)
  int warned = 0;          // SHOULD tests that failed: warnings, the run does not fail for them
  // 0.22 and reference-level tests whose outcome does not decide the run
  // (0.22 ones under profile spec, reference ones under spec and 0.22); under
  // a profile that counts them they count as passed / failed.
  int reference_passed = 0;
  int reference_failed = 0;
};

// Adds `record` to the column its outcome, level and `counts` select.
void count_in(SectionTally& tally, const TestRecord& record);

// Sections in the spec's order (section_before).
struct SpecSectionOrder {
  bool operator()(const std::string& a, const std::string& b) const { return section_before(a, b); }
};
using SectionTallies = std::map<std::string, SectionTally, SpecSectionOrder>;

// Every section any of `records` names → the tally of its tests; a test
// without a section counts under "(no section)".
SectionTallies tally_by_section(const std::vector<TestRecord>& records);

// Every test once.
SectionTally tally_of_all(const std::vector<TestRecord>& records);

}  // namespace ssp::harness
