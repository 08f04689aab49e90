// The text of the per-section report: a table of outcomes per SSP2 section,
// the closing totals line, and every skipped, excused or stale test with its
// reason. Pure formatting, so its layout is tested without running a suite.
// Which failures count is decided before (section_report.hpp,
// verdict_profile.hpp); this file only prints the tallies it is given.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/verdict/section_tallies.hpp"

namespace ssp::harness {

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
  std::vector<NotedTest> stale;              // listed as expected failures, but skipped
  // Failures GoogleTest recorded outside every test (an environment's or a
  // suite's set-up or tear-down), named by where they happened: they fail the run.
  std::vector<NotedTest> outside_tests;
  std::vector<NotedTest> harness_errors;     // tests the harness's own bug ended
  // What the table's level columns mean under the run's profile; "" prints none.
  std::string profile_line;
};

// The number of terminal columns `utf8` takes: one per code point ("§" is two
// bytes, one column). Every code point the section names use is one column
// wide; East Asian wide characters would be undercounted.
std::size_t display_width(std::string_view utf8);

// The table, one row per section in `by_section` order, section names padded
// to a common display width so the number columns line up, then the totals
// line from `total` (every test once, though a test of two sections is in two
// rows: passed, failed with errors, skipped: the tests that decide the run),
// the lines saying what else was counted (errors, expected failures,
// warnings, reference-level outcomes, the profile), then the skipped tests
// (if any) one per line, then the expected failures, unexpected passes, stale
// expectations and failures outside every test (if any), one per line with
// their reasons.
std::string format_section_table(const SectionTallies& by_section, const SectionTally& total,
                                 const std::vector<SkippedTest>& skipped,
                                 const ExpectationNotes& notes = {});

}  // namespace ssp::harness
