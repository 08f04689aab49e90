#include "harness/verdict/summary_json.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "harness/catalog/section_ids.hpp"
#include "harness/util/utf8_text.hpp"

namespace ssp::harness {
namespace {

using Json = nlohmann::ordered_json;

// The outcome counts a summary gives for a group of tests.
struct OutcomeCounts {
  int passed = 0, failed = 0, failed_not_counted = 0, expected_fail = 0, unexpected_pass = 0,
      skipped = 0, error = 0;

  void add(const TestRecord& test) {
    switch (test.outcome) {
      case TestOutcome::passed:
        ++passed;
        break;
      case TestOutcome::failed:
        ++(test.counts ? failed : failed_not_counted);
        break;
      case TestOutcome::expected_fail:
        ++expected_fail;
        break;
      case TestOutcome::unexpected_pass:
        ++unexpected_pass;
        break;
      case TestOutcome::skipped:
        ++skipped;
        break;
      case TestOutcome::error:
        ++error;
        break;
    }
  }

  void write_to(Json& object) const {
    object["passed"] = passed;
    object["failed"] = failed;
    object["failedNotCounted"] = failed_not_counted;
    object["expectedFail"] = expected_fail;
    object["unexpectedPass"] = unexpected_pass;
    object["skipped"] = skipped;
    object["error"] = error;
  }
};

Json optional_text(const std::optional<std::string>& text) {
  return text ? Json(with_valid_utf8(*text)) : Json(nullptr);
}

Json text_list(const std::vector<std::string>& texts) {
  Json list = Json::array();
  for (const auto& text : texts) list.push_back(with_valid_utf8(text));
  return list;
}

// The backends in the order tests are instantiated, no backend last.
int backend_rank(const std::optional<std::string>& backend) {
  if (!backend) return 3;
  if (*backend == "memory") return 0;
  return *backend == "sqlite" ? 1 : 2;
}

// One "counts" entry's key: section, backend, level; ordered as the spec
// orders sections, then by backend and level.
struct CountKey {
  std::string section;
  std::optional<std::string> backend;
  RequirementLevel level;

  bool operator<(const CountKey& other) const {
    if (section != other.section) return section_before(section, other.section);
    return std::forward_as_tuple(backend_rank(backend), level) <
           std::forward_as_tuple(backend_rank(other.backend), other.level);
  }
};

Json test_json(const TestRecord& test) {
  Json out;
  out["name"] = with_valid_utf8(test.name);
  out["test"] = with_valid_utf8(test.catalog_name);
  out["requirement"] = optional_text(test.requirement);
  out["sections"] = text_list(test.sections);
  out["level"] = requirement_level_name(test.level);
  out["backend"] = optional_text(test.backend);
  out["outcome"] = test_outcome_name(test.outcome);
  out["counts"] = test.counts;
  out["harnessError"] = test.harness_error;
  out["reason"] = with_valid_utf8(test.reason);
  out["seconds"] = test.seconds;
  out["missingCapability"] = optional_text(test.missing_capability);
  return out;
}

Json requirement_json(const CatalogEntry& row) {
  Json out;
  out["id"] = with_valid_utf8(row.id);
  out["file"] = with_valid_utf8(row.file);
  out["sections"] = text_list(section_ids(row.section));
  const auto level = parse_requirement_level(row.level);
  out["level"] = level ? Json(requirement_level_name(*level)) : Json(nullptr);
  out["levelCell"] = with_valid_utf8(row.level);
  out["kind"] = with_valid_utf8(row.kind);
  out["text"] = with_valid_utf8(row.text);
  out["tests"] = text_list(row.tests);
  return out;
}

}  // namespace

std::string summary_json(const RunSummary& run) {
  Json out;
  out["format"] = "ssp-conformance-summary";
  out["version"] = kSummaryJsonVersion;
  out["candidate"] = with_valid_utf8(run.candidate);
  out["executable"] = with_valid_utf8(run.executable);
  out["suite"] = {{"version", run.suite.version},
                  {"protocolVersions", {run.suite.oldest_protocol, run.suite.newest_protocol}},
                  {"ssp2Revision", run.suite.ssp2_revision},
                  {"catalogDigest", run.suite.catalog_digest}};
  out["profile"] = verdict_profile_name(run.profile);
  out["exitStatus"] = run.exit_status;

  OutcomeCounts total;
  std::map<CountKey, OutcomeCounts> by_key;
  Json tests = Json::array();
  for (const TestRecord& test : run.tests) {
    total.add(test);
    for (const std::string& section : test.sections) {
      by_key[CountKey{section, test.backend, test.level}].add(test);
    }
    tests.push_back(test_json(test));
  }
  Json totals = Json::object();
  total.write_to(totals);
  out["totals"] = totals;
  Json counts = Json::array();
  for (const auto& [key, tally] : by_key) {
    Json entry;
    entry["section"] = with_valid_utf8(key.section);
    entry["backend"] = optional_text(key.backend);
    entry["level"] = requirement_level_name(key.level);
    tally.write_to(entry);
    counts.push_back(entry);
  }
  out["counts"] = counts;
  out["tests"] = tests;
  Json outside = Json::array();
  for (const NotedTest& failure : run.outside_tests) {
    outside.push_back(
        {{"where", with_valid_utf8(failure.name)}, {"reason", with_valid_utf8(failure.reason)}});
  }
  out["outsideTests"] = outside;
  Json parts = Json::array();
  for (const ExercisedPart& part : run.exercised.parts) {
    parts.push_back({{"area", part.area},
                     {"backend", part.backend},
                     {"ran", part.ran},
                     {"ranNotCounted", part.ran_not_counted},
                     {"skipped", part.skipped},
                     {"mustOwed", part.must_owed},
                     {"mustRan", part.must_ran}});
  }
  out["exercised"] = parts;
  out["notClaimed"] = run.exercised.not_claimed;
  Json claims = Json::array();
  for (const ClaimCheck& check : run.exercised.claims) {
    claims.push_back({{"area", check.claim.area},
                      {"backend", check.claim.backend},
                      {"ran", check.ran},
                      {"exercised", check.exercised}});
  }
  out["claims"] = claims;
  Json unreachable = Json::object();
  for (const auto& [backend, why] : run.exercised.unreachable) {
    unreachable[backend] = with_valid_utf8(why);
  }
  out["unreachable"] = unreachable;
  Json not_exercised = Json::array();
  for (const std::string& problem : run.exercised.not_exercised) {
    not_exercised.push_back(with_valid_utf8(problem));
  }
  out["notExercised"] = not_exercised;
  Json requirements = Json::array();
  for (const CatalogEntry& row : run.requirements) requirements.push_back(requirement_json(row));
  out["requirements"] = requirements;
  return out.dump(2) + "\n";
}

}  // namespace ssp::harness
