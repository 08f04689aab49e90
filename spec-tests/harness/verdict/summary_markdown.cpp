#include "harness/verdict/summary_markdown.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "harness/catalog/section_ids.hpp"
#include "harness/util/utf8_text.hpp"
#include "harness/verdict/section_tallies.hpp"

namespace ssp::harness {
namespace {

constexpr std::size_t kReasonLength = 300;  // a reason's characters in a list item
constexpr std::size_t kSkipExamples = 3;    // test names shown per skip reason

// `text` on one line, valid UTF-8, at most about kReasonLength bytes (cut at
// a code point's start), with the characters Markdown would read as markup
// inside a list item made harmless.
std::string one_line(const std::string& text) {
  std::string line = with_valid_utf8(text);
  std::replace(line.begin(), line.end(), '\n', ' ');
  if (line.size() > kReasonLength) {
    std::size_t cut = kReasonLength;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xc0) == 0x80) --cut;
    line = line.substr(0, cut) + " …";
  }
  std::string out;
  for (const char c : line) {
    if (c == '<') {
      out += "&lt;";
    } else if (c == '|' || c == '*' || c == '_' || c == '`' || c == '[' || c == ']') {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

std::string code(const std::string& name) { return "`" + with_valid_utf8(name) + "`"; }

// A cell's "passed / failed / expected-fail / skipped" from the tally of its
// tests (count_in): every pass, reference level or not; counted failures,
// unexpected passes and errors as failed; failures that do not count said
// apart, so that a warning is not hidden.
std::string cell_text(const SectionTally& tally) {
  const int passed = tally.passed + tally.reference_passed;
  const int failed = tally.failed + tally.errors + tally.harness_errors;
  const int not_counted = tally.warned + tally.reference_failed;
  std::string out = std::to_string(passed) + " / " + (failed ? "**" : "") + std::to_string(failed) +
                    (failed ? "**" : "");
  if (not_counted) out += " (+" + std::to_string(not_counted) + " not counted)";
  return out + " / " + std::to_string(tally.expected) + " / " + std::to_string(tally.skipped);
}

std::string test_context(const TestRecord& test) {
  std::string context;
  for (const auto& section : test.sections) context += (context.empty() ? "" : ", ") + section;
  context += std::string(context.empty() ? "" : ", ") + test.requirement.value_or("uncataloged") +
             ", " + std::string(requirement_level_name(test.level));
  if (test.backend) context += ", " + *test.backend;
  return context;
}

// "\n## title\n\n" and one item per test `keep` selects; "" when none is.
template <typename Keep>
std::string test_list(const std::string& title, const RunSummary& run, Keep keep) {
  std::string items;
  for (const TestRecord& test : run.tests) {
    if (!keep(test)) continue;
    items +=
        "- " + code(test.name) + " (" + test_context(test) + "): " + one_line(test.reason) + "\n";
  }
  return items.empty() ? "" : "\n## " + title + "\n\n" + items;
}

std::string verdict(int exit_status) {
  switch (exit_status) {
    case 0:
      return "**passed** (exit status 0)";
    case 1:
      return "**failed** (exit status 1: a test that counts failed)";
    case 2:
      return "**error** (exit status 2: a test erred, or the run could not start)";
    default:
      return "**failed** (exit status " + std::to_string(exit_status) + ")";
  }
}

std::string matrix(const RunSummary& run) {
  const std::vector<std::string> backend_order = {"memory", "sqlite", "postgres", ""};
  std::set<std::string> backends_seen;
  std::map<std::string, std::map<std::string, SectionTally>, SpecSectionOrder> cells;
  for (const TestRecord& test : run.tests) {
    const std::string backend = test.backend.value_or("");
    backends_seen.insert(backend);
    for (const auto& section : test.sections) count_in(cells[section][backend], test);
  }
  std::vector<std::string> columns;
  for (const auto& backend : backend_order) {
    if (backends_seen.count(backend)) columns.push_back(backend);
  }
  std::string out = "| section |";
  std::string rule = "|---|";
  for (const auto& backend : columns) {
    out += " " + (backend.empty() ? std::string("no backend") : backend) + " |";
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  for (const auto& [section, by_backend] : cells) {
    out += "| " + one_line(section) + " |";
    for (const auto& backend : columns) {
      const auto cell = by_backend.find(backend);
      out += " " + (cell == by_backend.end() ? std::string("—") : cell_text(cell->second)) + " |";
    }
    out += "\n";
  }
  return out;
}

std::string skips_by_reason(const RunSummary& run) {
  std::map<std::string, std::vector<std::string>> by_reason;
  for (const TestRecord& test : run.tests) {
    if (test.outcome == TestOutcome::skipped) by_reason[test.reason].push_back(test.name);
  }
  if (by_reason.empty()) return "";
  std::string out = "\n## Skipped, by reason\n\n";
  for (const auto& [reason, names] : by_reason) {
    out += "- " + std::to_string(names.size()) + (names.size() == 1 ? " test" : " tests") + ": " +
           one_line(reason) + " (";
    for (std::size_t i = 0; i < std::min(names.size(), kSkipExamples); ++i) {
      out += (i ? ", " : "") + code(names[i]);
    }
    out += names.size() > kSkipExamples ? ", …)\n" : ")\n";
  }
  return out;
}

// What the run exercised of each declared area per backend, the claims, the
// backends it could not reach, and why it is not a pass for what did not run.
std::string exercised_section(const Exercised& exercised) {
  std::string out;
  if (!exercised.parts.empty()) {
    out += "\n## What the run exercised\n\n| area | backend | ran, counted | ran, not counted "
           "| skipped | MUST reach |\n|---|---|---|---|---|---|\n";
    for (const ExercisedPart& part : exercised.parts) {
      out += "| " + part.area + " | " + part.backend + " | " + std::to_string(part.ran) + " | " +
             std::to_string(part.ran_not_counted) + " | " + std::to_string(part.skipped) + " | " +
             (exercised.unreachable.contains(part.backend)
                  ? std::string("—")
                  : std::to_string(part.must_ran) + "/" + std::to_string(part.must_owed)) +
             " |\n";
    }
  }
  if (!exercised.not_claimed.empty()) {
    out += "\nNot claimed (skipped for an area the candidate does not declare, judged nowhere):";
    for (const auto& [area, count] : exercised.not_claimed) {
      out += " " + code(area) + " " + std::to_string(count);
    }
    out += ".\n";
  }
  if (!exercised.claims.empty()) {
    out += "\nClaims: ";
    for (std::size_t i = 0; i < exercised.claims.size(); ++i) {
      const ClaimCheck& check = exercised.claims[i];
      out += std::string(i ? ", " : "") + code(check.claim.area + "@" + check.claim.backend) + " " +
             (check.exercised ? "exercised (" + std::to_string(check.ran) + " ran)"
                              : "**not exercised**");
    }
    out += ".\n";
  }
  for (const auto& [backend, why] : exercised.unreachable) {
    out += "\nNot reachable in this run: " + backend + " (" + one_line(why) + ").\n";
  }
  if (!exercised.not_exercised.empty()) {
    out += "\n## Not exercised (the run is not a pass)\n\n";
    for (const std::string& problem : exercised.not_exercised) {
      out += "- " + one_line(problem) + "\n";
    }
  }
  return out;
}

}  // namespace

std::string summary_markdown(const RunSummary& run) {
  const SectionTally total = tally_of_all(run.tests);
  std::string out = "# SSP2 conformance: " + one_line(run.candidate) + "\n\n";
  out += "Verdict: " + verdict(run.exit_status) + ", profile " + verdict_profile_name(run.profile) +
         " (" + std::to_string(run.tests.size()) +
         " tests; passed / failed / expected-fail / skipped: " + cell_text(total) + ").\n\n";
  out += "Judged by " + one_line(run.executable) + " " + run.suite.version +
         " (driver protocol " + std::to_string(run.suite.oldest_protocol) + "–" +
         std::to_string(run.suite.newest_protocol) + ", SSP2 revision " + run.suite.ssp2_revision +
         ", requirements catalog " + run.suite.catalog_digest + ").\n\n";
  out +=
      "Cells: passed / failed / expected-fail / skipped. A test of several sections counts "
      "under each; errors and unexpected passes count as failed; \"not counted\" failures "
      "are SHOULD warnings or 0.22 and reference-level failures the profile does not count.\n\n";
  out += matrix(run);
  out += exercised_section(run.exercised);
  out += test_list("Failures and errors", run, [](const TestRecord& test) {
    return (test.outcome == TestOutcome::failed && test.counts) ||
           test.outcome == TestOutcome::error || test.outcome == TestOutcome::unexpected_pass;
  });
  if (!run.outside_tests.empty()) {
    out += "\n## Failures outside every test\n\n";
    for (const NotedTest& failure : run.outside_tests) {
      out += "- " + one_line(failure.name) + ": " + one_line(failure.reason) + "\n";
    }
  }
  out += test_list(
      "Failures not counted (SHOULD warnings, 0.22 and reference levels)", run,
      [](const TestRecord& test) { return test.outcome == TestOutcome::failed && !test.counts; });
  out += test_list("Expected failures", run, [](const TestRecord& test) {
    return test.outcome == TestOutcome::expected_fail;
  });
  out += skips_by_reason(run);
  return out;
}

}  // namespace ssp::harness
