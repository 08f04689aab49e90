#include "harness/verdict/exercised.hpp"

#include <algorithm>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "harness/candidate/backend.hpp"

namespace ssp::harness {
namespace {

constexpr const char* kNoBackend = "-";

std::string suite_of(const TestRecord& record) {
  return record.catalog_name.substr(0, record.catalog_name.find('.'));
}

bool every_test_skipped(const ExercisedPart& part) {
  return part.ran == 0 && part.ran_not_counted == 0 && part.skipped > 0;
}

// "N skipped: reason; reason", or what ran instead.
std::string what_happened(const ExercisedPart& part) {
  if (part.skipped == 0) {
    return part.ran_not_counted > 0
               ? std::to_string(part.ran_not_counted) + " ran at levels the profile does not count"
               : "no test of it was selected";
  }
  const auto& reasons = part.skip_reasons;
  std::string text = std::to_string(part.skipped) + " skipped";
  const std::size_t shown = std::min<std::size_t>(reasons.size(), 3);
  for (std::size_t i = 0; i < shown; ++i) text += (i == 0 ? ": " : "; ") + reasons[i];
  if (reasons.size() > shown) text += "; …";
  return text;
}

// The area a skipped test needed and the candidate does not declare, or
// nothing: a test skipped so is not claimed.
std::optional<std::string> unclaimed_area(const TestRecord& record, const ExerciseRules& rules) {
  if (record.outcome != TestOutcome::skipped || !record.missing_capability) return std::nullopt;
  const auto& undeclared = rules.undeclared_areas;
  if (std::find(undeclared.begin(), undeclared.end(), *record.missing_capability) ==
      undeclared.end()) {
    return std::nullopt;
  }
  return record.missing_capability;
}

// "12 (scope 7, rows 5)": the tests not claimed, by area.
std::string count_by_area(const std::map<std::string, int>& by_area) {
  int total = 0;
  std::string areas;
  for (const auto& [area, count] : by_area) {
    total += count;
    areas += (areas.empty() ? "" : ", ") + area + " " + std::to_string(count);
  }
  return std::to_string(total) + " (" + areas + ")";
}

void note_skip(ExercisedPart& part, const TestRecord& record) {
  ++part.skipped;
  if (std::find(part.skip_reasons.begin(), part.skip_reasons.end(), record.reason) ==
      part.skip_reasons.end()) {
    part.skip_reasons.push_back(record.reason);
  }
}

}  // namespace

std::vector<Claim> parse_claims(const std::string& list,
                                const std::vector<std::string>& known_areas) {
  std::vector<Claim> claims;
  std::stringstream in(list);
  for (std::string entry; std::getline(in, entry, ',');) {
    const auto at = entry.find('@');
    const std::string area = entry.substr(0, at);
    const std::string backend = at == std::string::npos ? "" : entry.substr(at + 1);
    if (at == std::string::npos ||
        std::find(known_areas.begin(), known_areas.end(), area) == known_areas.end() ||
        !backend_called(backend)) {
      throw std::invalid_argument("'" + entry +
                                  "' is not AREA@BACKEND with an area --list names and a "
                                  "backend of memory, sqlite, postgres");
    }
    claims.push_back({area, backend});
  }
  if (claims.empty()) throw std::invalid_argument("names no part: give AREA@BACKEND, …");
  return claims;
}

Exercised what_was_exercised(const std::vector<TestRecord>& records, const ExerciseRules& rules) {
  Exercised exercised;
  std::map<std::pair<std::string, std::string>, ExercisedPart> parts;
  // Each test that asks the candidate on a reachable backend counts once in
  // its backend's entry, and once in each of its areas' entries.
  std::map<std::string, ExercisedPart> by_backend;
  std::map<std::string, ExercisedPart> by_area;
  int ran = 0;
  for (const TestRecord& record : records) {
    ran += record.outcome != TestOutcome::skipped ? 1 : 0;
    const auto areas = rules.areas_by_suite.find(suite_of(record));
    if (areas == rules.areas_by_suite.end()) continue;
    if (const auto area = unclaimed_area(record, rules)) {
      ++exercised.not_claimed[*area];
      continue;
    }
    const std::string backend = record.backend.value_or(kNoBackend);
    std::vector<ExercisedPart*> touched;
    for (const std::string& area : areas->second) {
      ExercisedPart& part = parts[{area, backend}];
      part.area = area;
      part.backend = backend;
      touched.push_back(&part);
    }
    const auto unreachable = rules.unreachable_backends.find(backend);
    if (unreachable != rules.unreachable_backends.end()) {
      exercised.unreachable.insert(*unreachable);
    } else {
      touched.push_back(&by_backend[backend]);
      for (const std::string& area : areas->second) touched.push_back(&by_area[area]);
    }
    const bool must = record.level == RequirementLevel::must;
    for (ExercisedPart* part : touched) {
      part->must_owed += must ? 1 : 0;
      if (record.outcome == TestOutcome::skipped) {
        note_skip(*part, record);
      } else {
        ++(record.counts ? part->ran : part->ran_not_counted);
        part->must_ran += must ? 1 : 0;
      }
    }
  }

  const auto& declared = rules.declared_areas;
  for (const auto& [key, part] : parts) {
    if (std::find(declared.begin(), declared.end(), key.first) != declared.end()) {
      exercised.parts.push_back(part);
    }
  }
  int asking = 0;      // tests that ask the candidate on a reachable backend
  int asking_ran = 0;  // those of them that ran and count
  for (const auto& [backend, part] : by_backend) {
    asking += part.ran + part.ran_not_counted + part.skipped;
    asking_ran += part.ran;
  }
  auto& problems = exercised.not_exercised;
  if (records.empty()) {
    problems.push_back("no test was selected: the filter matches none");
  } else if (ran == 0) {
    problems.push_back("no test ran: every one of the " + std::to_string(records.size()) +
                       " selected was skipped");
  } else if (asking > 0 && asking_ran == 0) {
    problems.push_back("no test that asks the candidate ran and counts: " +
                       std::to_string(asking) + " selected");
  } else if (asking == 0 && !exercised.not_claimed.empty()) {
    problems.push_back("no test of an area the candidate declares was selected: every test that "
                       "asks the candidate was not claimed, " +
                       count_by_area(exercised.not_claimed));
  }
  // Once nothing that asks the candidate ran, the line above says it all.
  if (asking_ran > 0) {
    for (const std::string& area : declared) {
      const auto part = by_area.find(area);
      if (part != by_area.end() && every_test_skipped(part->second)) {
        problems.push_back("declared area " + area + ": every test was skipped (" +
                           what_happened(part->second) + ")");
      }
    }
    for (const auto& [backend, part] : by_backend) {
      if (every_test_skipped(part)) {
        problems.push_back("backend " + backend + ": every test was skipped (" +
                           what_happened(part) + ")");
      }
    }
  }
  for (const Claim& claim : rules.claims) {
    const auto part = parts.find({claim.area, claim.backend});
    const auto unreachable = rules.unreachable_backends.find(claim.backend);
    const int claim_ran = part == parts.end() ? 0 : part->second.ran;
    const bool reached = unreachable == rules.unreachable_backends.end();
    exercised.claims.push_back({claim, claim_ran, reached && claim_ran > 0});
    if (exercised.claims.back().exercised) continue;
    std::string why =
        part == parts.end() ? "no test of it was selected" : what_happened(part->second);
    if (!reached) why = unreachable->second;
    problems.push_back("claim " + claim.area + "@" + claim.backend + ": not exercised (" + why +
                       ")");
  }
  return exercised;
}

std::string format_exercised(const Exercised& exercised) {
  std::string out;
  std::string area;
  for (const ExercisedPart& part : exercised.parts) {
    if (out.empty()) out = "exercised per declared area (counted tests that ran, skipped tests):\n";
    out += part.area == area ? " \u00b7 " : (area.empty() ? "  " : "\n  ") + part.area + ": ";
    area = part.area;
    out += part.backend + " " + std::to_string(part.ran) + " ran, ";
    if (part.ran_not_counted > 0) {
      out += std::to_string(part.ran_not_counted) + " ran not counted, ";
    }
    out += std::to_string(part.skipped) + " skipped";
    // A backend the run could not reach owes nothing (its line below says why).
    if (part.must_owed > 0 && !exercised.unreachable.contains(part.backend)) {
      out += ", MUST reach " + std::to_string(part.must_ran) + "/" + std::to_string(part.must_owed);
    }
  }
  if (!area.empty()) out += "\n";
  if (!exercised.not_claimed.empty()) {
    out += "not claimed (skipped for an area the candidate does not declare; judged nowhere): " +
           count_by_area(exercised.not_claimed) + "\n";
  }
  for (const auto& [backend, why] : exercised.unreachable) {
    out += "not reachable in this run: " + backend + " (" + why + ")\n";
  }
  if (!exercised.not_exercised.empty()) {
    out += "not a pass: the run did not exercise what it must (exit status 2):\n";
    for (const std::string& problem : exercised.not_exercised) out += "  " + problem + "\n";
  }
  return out;
}

}  // namespace ssp::harness
