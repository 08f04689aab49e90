#include "harness/verdict/verdict_profile.hpp"

#include <cstdlib>
#include <stdexcept>

namespace ssp::harness {

VerdictProfile verdict_profile_from_environment() {
  const char* value = std::getenv("SSP_PROFILE");
  const std::string profile = value ? value : "";
  if (profile.empty() || profile == "spec") return VerdictProfile::spec;
  if (profile == "reference") return VerdictProfile::reference;
  throw std::invalid_argument("SSP_PROFILE is '" + profile +
                              "'; accepted: spec (the default: MUST failures fail the run) or "
                              "reference (every level fails the run)");
}

bool failure_fails_the_run(VerdictProfile profile, RequirementLevel level) {
  return profile == VerdictProfile::reference || level == RequirementLevel::must;
}

std::string verdict_profile_name(VerdictProfile profile) {
  return profile == VerdictProfile::reference ? "reference" : "spec";
}

}  // namespace ssp::harness
