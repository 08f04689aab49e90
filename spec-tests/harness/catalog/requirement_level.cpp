#include "harness/catalog/requirement_level.hpp"

#include <array>
#include <sstream>
#include <utility>

#include "harness/util/markdown_tables.hpp"

namespace ssp::harness {
namespace {

constexpr std::array<std::pair<std::string_view, RequirementLevel>, 4> kLevels = {{
    {"MUST", RequirementLevel::must},
    {"SHOULD", RequirementLevel::should},
    {"0.22", RequirementLevel::release},
    {"reference", RequirementLevel::reference},
}};

}  // namespace

std::optional<RequirementLevel> parse_requirement_level(std::string_view cell) {
  for (const auto& [name, level] : kLevels) {
    if (cell == name) return level;
    // "NAME (sources)": something between the parentheses.
    if (cell.starts_with(name) && cell.substr(name.size()).starts_with(" (") &&
        cell.ends_with(")") && cell.size() > name.size() + 3) {
      return level;
    }
  }
  return std::nullopt;
}

std::vector<std::string> level_sources(std::string_view cell) {
  const auto open = cell.find('(');
  if (open == std::string_view::npos || !cell.ends_with(")")) return {};
  std::istringstream names(std::string(cell.substr(open + 1, cell.size() - open - 2)));
  std::vector<std::string> sources;
  for (std::string name; std::getline(names, name, ',');) sources.push_back(trimmed(name));
  return sources;
}

std::string_view requirement_level_name(RequirementLevel level) {
  for (const auto& [name, known] : kLevels) {
    if (known == level) return name;
  }
  return "?";
}

}  // namespace ssp::harness
