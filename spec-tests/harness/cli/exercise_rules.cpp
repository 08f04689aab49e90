#include "harness/cli/exercise_rules.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "harness/backends/test_database.hpp"
#include "harness/gates/capability_gate.hpp"
#include "harness/gates/suite_capabilities.hpp"

namespace ssp::harness {
namespace {

// An optional mechanism a test may switch on, not an area of its own: a suite
// lists it as "may need", so its tests that ran may not have used it, and one
// that did not run says nothing of it. Claims may still name one.
bool is_mechanism(Capability capability) {
  return capability == Capability::hooks || capability == Capability::injected_hasher ||
         capability == Capability::read_only_open || capability == Capability::push_hooks ||
         capability == Capability::command_callbacks ||
         capability == Capability::upstream_tables || capability == Capability::schema_reports;
}

}  // namespace

ExerciseRules exercise_rules(const Candidate* candidate) {
  ExerciseRules rules;
  std::vector<std::string> known;
  for (const auto& [suite, capabilities] : suite_capabilities()) {
    auto& areas = rules.areas_by_suite[suite];
    for (const Capability capability : capabilities) {
      const std::string key(capability_key(capability));
      areas.push_back(key);
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      known.push_back(key);
      if (is_mechanism(capability)) continue;
      if (candidate != nullptr && candidate->has(capability)) {
        rules.declared_areas.push_back(key);
      } else {
        rules.undeclared_areas.push_back(key);
      }
    }
  }
  for (const Backend backend : all_backends()) {
    const std::string name(backend_name(backend));
    if (candidate == nullptr || !candidate->supports(backend)) {
      rules.unreachable_backends[name] = "the candidate does not implement it";
    } else if (const auto why = backend_unavailable(backend); why && !postgres_required()) {
      rules.unreachable_backends[name] = *why;
    }
  }
  const char* claims = std::getenv("SSP_CLAIMS");
  if (claims != nullptr && *claims != '\0') rules.claims = parse_claims(claims, known);
  return rules;
}

}  // namespace ssp::harness
