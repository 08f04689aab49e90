#include "harness/verdict/verdict_profile.hpp"

#include <cstdlib>
#include <stdexcept>

namespace ssp::harness {

VerdictProfile verdict_profile_from_environment() {
  const char* value = std::getenv("SSP_PROFILE");
  const std::string profile = value ? value : "";
  if (profile.empty() || profile == "spec") return VerdictProfile::spec;
  if (profile == "0.22") return VerdictProfile::release;
  if (profile == "reference") return VerdictProfile::reference;
  throw std::invalid_argument(
      "SSP_PROFILE is '" + profile +
      "'; accepted: spec (the default: MUST failures fail the run), 0.22 (MUST and the 0.22 "
      "release's rows) or reference (every level fails the run)");
}

bool failure_fails_the_run(VerdictProfile profile, RequirementLevel level) {
  switch (profile) {
    case VerdictProfile::reference:
      return true;
    case VerdictProfile::release:
      return level == RequirementLevel::must || level == RequirementLevel::release;
    case VerdictProfile::spec:
      return level == RequirementLevel::must;
  }
  return true;
}

std::string verdict_profile_name(VerdictProfile profile) {
  switch (profile) {
    case VerdictProfile::reference:
      return "reference";
    case VerdictProfile::release:
      return "0.22";
    case VerdictProfile::spec:
      return "spec";
  }
  return "?";
}

}  // namespace ssp::harness
