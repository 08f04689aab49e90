#include "run_results.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "harness/errors/driver_error.hpp"

namespace ssp::driver_tests {
namespace {

using JsonDocument = nlohmann::json;

Outcome outcome_of(const JsonDocument& test) {
  // The property is there even when the test caught the DriverError.
  if (test.contains("driver_error")) return Outcome::errored;
  const JsonDocument& failures =
      test.contains("failures") ? test.at("failures") : JsonDocument::array();
  if (test.value("result", "") == "SKIPPED" && failures.empty()) {
    return Outcome::skipped;
  }
  if (failures.empty()) return Outcome::passed;
  for (const JsonDocument& failure : failures) {
    if (harness::reports_driver_error(failure.value("failure", ""))) return Outcome::errored;
  }
  return Outcome::failed;
}

}  // namespace

std::string_view outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::passed: return "passed";
    case Outcome::failed: return "failed";
    case Outcome::errored: return "errored";
    case Outcome::skipped: return "skipped";
  }
  return "unknown";
}

RunResults parse_run_results(std::string_view json_text) {
  RunResults results;
  try {
    const JsonDocument document = JsonDocument::parse(json_text);
    for (const JsonDocument& suite : document.at("testsuites")) {
      for (const JsonDocument& test : suite.at("testsuite")) {
        results[test.at("classname").get<std::string>() + "." + test.at("name").get<std::string>()] =
            outcome_of(test);
      }
    }
  } catch (const JsonDocument::exception& error) {
    throw std::runtime_error(std::string("not a GoogleTest JSON result: ") + error.what());
  }
  return results;
}

std::vector<std::string> compare_runs(const RunResults& in_process, const RunResults& driver) {
  std::vector<std::string> differences;
  for (const auto& [test, outcome] : in_process) {
    const auto found = driver.find(test);
    if (found == driver.end()) {
      differences.push_back(test + ": " + std::string(outcome_name(outcome)) +
                            " in process, not run through the driver");
      continue;
    }
    const bool must_match = outcome == Outcome::passed || outcome == Outcome::skipped ||
                            found->second == Outcome::skipped;
    if (must_match && found->second != outcome) {
      differences.push_back(test + ": " + std::string(outcome_name(outcome)) +
                            " in process, " + std::string(outcome_name(found->second)) +
                            " through the driver");
    }
  }
  for (const auto& [test, outcome] : driver) {
    if (!in_process.contains(test)) {
      differences.push_back(test + ": " + std::string(outcome_name(outcome)) +
                            " through the driver, not run in process");
    }
  }
  return differences;
}

}  // namespace ssp::driver_tests
