#include "harness/catalog/requirement_level.hpp"

namespace ssp::harness {

std::optional<RequirementLevel> parse_requirement_level(std::string_view cell) {
  if (cell == "MUST") return RequirementLevel::must;
  if (cell == "SHOULD") return RequirementLevel::should;
  constexpr std::string_view kReference = "reference";
  if (cell == kReference) return RequirementLevel::reference;
  if (cell.starts_with("reference (") && cell.ends_with(")") &&
      cell.size() > kReference.size() + 3) {
    return RequirementLevel::reference;
  }
  return std::nullopt;
}

std::string_view requirement_level_name(RequirementLevel level) {
  switch (level) {
    case RequirementLevel::must:
      return "MUST";
    case RequirementLevel::should:
      return "SHOULD";
    case RequirementLevel::reference:
      return "reference";
  }
  return "?";
}

}  // namespace ssp::harness
