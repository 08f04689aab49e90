// How binding a requirement is, and where that comes from: the level column of
// the catalog (docs/requirements/*.md). MUST and SHOULD rows rest on a sentence
// of SSP2; a `reference` row rests on a decision of ours (a tie-break, a
// message's wording, a refusal the spec does not ask for), named in
// docs/decisions.md. The verdict on a candidate counts the levels its profile
// names (verdict_profile.hpp).
#pragma once

#include <optional>
#include <string_view>

namespace ssp::harness {

enum class RequirementLevel { must, should, reference };

// The level a catalog cell spells: "MUST", "SHOULD", or "reference" alone or
// followed by the decision in parentheses ("reference (D5)"). Nothing for any
// other text (the catalog check reports it).
std::optional<RequirementLevel> parse_requirement_level(std::string_view cell);

// "MUST", "SHOULD", "reference".
std::string_view requirement_level_name(RequirementLevel level);

}  // namespace ssp::harness
