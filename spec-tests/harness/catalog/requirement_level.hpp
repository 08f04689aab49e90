// How binding a requirement is, and where that comes from: the level column of
// the catalog (docs/requirements/*.md). Three sources (docs/harness.md, "Three
// sources of requirement"):
//  - MUST and SHOULD rest on a keyword occurrence of SSP2, cited in the cell
//    as "MUST (§6.4 MUST#2)" (source_citations.hpp checks the citation);
//  - 0.22 rests on the 0.22 release's behaviour where SSP2 is silent, named as
//    a file or hunk of its seed diff or an upstream file: "0.22 (diff
//    storage.ts @@2)";
//  - reference rests on a decision of ours (a tie-break, a message's wording,
//    a refusal the spec does not ask for), named in docs/decisions.md:
//    "reference (D5)".
// The verdict on a candidate counts the levels its profile names
// (verdict_profile.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ssp::harness {

// `release` is the 0.22 level: spelled "0.22" in the catalog and the reports.
enum class RequirementLevel { must, should, release, reference };

// The level a catalog cell spells: "MUST", "SHOULD", "0.22" or "reference",
// alone or followed by its sources in parentheses ("reference (D5)").
// Nothing for any other text (the catalog check reports it).
std::optional<RequirementLevel> parse_requirement_level(std::string_view cell);

// The sources a cell names in its parentheses, separated by commas, each
// trimmed: "MUST (§6.4 MUST#2, §2.1 MUST#1)" → {"§6.4 MUST#2", "§2.1 MUST#1"};
// none when the cell has no parentheses.
std::vector<std::string> level_sources(std::string_view cell);

// "MUST", "SHOULD", "0.22", "reference".
std::string_view requirement_level_name(RequirementLevel level);

}  // namespace ssp::harness
