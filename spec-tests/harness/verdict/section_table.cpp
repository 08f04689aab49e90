#include "harness/verdict/section_table.hpp"

#include <algorithm>
#include <cstdio>

namespace ssp::harness {
namespace {

// `text` followed by spaces up to `width` display columns.
std::string padded(const std::string& text, std::size_t width) {
  return text + std::string(width - std::min(width, display_width(text)), ' ');
}

std::string row(const std::string& section, std::size_t width, const SectionTally& tally) {
  char numbers[96];
  std::snprintf(numbers, sizeof numbers, " %7d %7d %7d %7d %8d %7d %7d %8d", tally.passed,
                tally.failed, tally.errors + tally.harness_errors, tally.expected, tally.skipped,
                tally.warned, tally.reference_passed, tally.reference_failed);
  const char* mark =
      tally.errors + tally.harness_errors ? "  ERROR" : (tally.failed ? "  FAILED" : "");
  return "  " + padded(section, width) + numbers + mark + "\n";
}

// "\n<title>:\n" and one line per test with its reason; "" for no tests.
std::string listed(const std::string& title, const std::vector<NotedTest>& tests) {
  if (tests.empty()) return "";
  std::string out = "\n" + title + ":\n";
  for (const NotedTest& test : tests) {
    std::string reason = test.reason;
    std::replace(reason.begin(), reason.end(), '\n', ' ');  // one line per test
    out += "  " + test.name + ": " + reason + "\n";
  }
  return out;
}

}  // namespace

std::size_t display_width(std::string_view utf8) {
  // Count the bytes that start a code point: every byte but 10xxxxxx.
  return static_cast<std::size_t>(std::count_if(utf8.begin(), utf8.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  }));
}

std::string format_section_table(const SectionTallies& by_section, const SectionTally& total,
                                 const std::vector<SkippedTest>& skipped,
                                 const ExpectationNotes& notes) {
  std::size_t width = display_width("section");
  for (const auto& [section, tally] : by_section) width = std::max(width, display_width(section));
  std::string out = "\nSSP2 conformance by section\n";
  char header[96];
  std::snprintf(header, sizeof header, " %7s %7s %7s %7s %8s %7s %7s %8s\n", "passed", "failed",
                "errors", "xfail", "skipped", "warned", "ref-ok", "ref-fail");
  out += "  " + padded("section", width) + header;
  for (const auto& [section, tally] : by_section) {
    out += row(section, width, tally);
  }
  // The closing line keeps the plain "N passed, N failed, N skipped" form that
  // CI log readers recognise, so an error counts among the failed there.
  out += "\n" + std::to_string(total.passed) + " passed, " +
         std::to_string(total.failed + total.errors + total.harness_errors +
                        static_cast<int>(notes.outside_tests.size())) +
         " failed, " +
         std::to_string(total.skipped) + " skipped\n";
  if (total.errors > 0) {
    out += std::to_string(total.errors) +
           " of the failed are errors: the candidate's driver broke the protocol "
           "(docs/driver-protocol.md)\n";
  }
  if (total.harness_errors > 0) {
    out += std::to_string(total.harness_errors) +
           " of the failed are harness errors: a bug of the suite, not the candidate's failure\n";
  }
  if (total.expected > 0) {
    out += std::to_string(total.expected) +
           " expected failures (the candidate's expectations file), not counted as failed\n";
  }
  if (total.warned > 0) {
    out += std::to_string(total.warned) +
           " SHOULD tests failed: warnings, not counted as failed\n";
  }
  if (total.reference_passed + total.reference_failed > 0) {
    out += "not counted by the profile (levels 0.22 and reference: the release's behaviour, "
           "our decisions): " +
           std::to_string(total.reference_passed) + " passed, " +
           std::to_string(total.reference_failed) + " failed\n";
  }
  if (!notes.outside_tests.empty()) {
    out += std::to_string(notes.outside_tests.size()) +
           " failures outside every test, counted as failed\n";
  }
  if (!notes.profile_line.empty()) out += notes.profile_line + "\n";
  out += listed("skipped", skipped);
  out += listed("expected failures", notes.expected_failures);
  out += listed("unexpected passes (listed as expected failures; counted as failed)",
                notes.unexpected_passes);
  out += listed("stale expectations (listed as expected failures, but skipped)", notes.stale);
  out += listed("failures outside every test (counted as failed)", notes.outside_tests);
  out += listed("harness errors (a bug of the suite; please report it)", notes.harness_errors);
  return out;
}

}  // namespace ssp::harness
