// The text of the per-section report: a table of passed / failed / errors / skipped per
// SSP2 section, the closing totals line, and every skipped test with its
// reason. Pure formatting, so its layout is tested without running a suite.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ssp::harness {

struct SectionTally {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  int errors = 0;  // the candidate's driver broke the protocol (driver_error.hpp)
  int expected = 0;  // failed as the candidate's expectations say (expectations.hpp)
};

// A test ("Suite.Test/param") and why it ended as it did: a skip's reason, an
// expected failure's reason, or what an unexpected pass contradicts.
struct NotedTest {
  std::string name;
  std::string reason;
};
using SkippedTest = NotedTest;

// What the report lists after the table, besides the skips.
struct ExpectationNotes {
  std::vector<NotedTest> expected_failures;  // failed, as expected: the run does not fail
  std::vector<NotedTest> unexpected_passes;  // expected to fail but passed: counted as failed
};

// The number of terminal columns `utf8` takes: one per code point ("§" is two
// bytes, one column). Every code point the section names use is one column
// wide; East Asian wide characters would be undercounted.
std::size_t display_width(std::string_view utf8);

// The table, one row per section in `by_section` order, section names padded
// to a common display width so the number columns line up, then the totals
// line, then the skipped tests (if any) one per line, then the expected
// failures and unexpected passes (if any), one per line with their reasons.
std::string format_section_table(const std::map<std::string, SectionTally>& by_section,
                                 const std::vector<SkippedTest>& skipped,
                                 const ExpectationNotes& notes = {});

}  // namespace ssp::harness
