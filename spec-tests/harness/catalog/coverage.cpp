#include "harness/catalog/coverage.hpp"

#include <map>
#include <set>
#include <stdexcept>

#include "harness/util/markdown_tables.hpp"

namespace ssp::harness {
namespace {

constexpr std::string_view kEllipsis = "…";

// "SEG-INV-14" → {"SEG-INV-", 14}; nullopt without a trailing number.
std::optional<std::pair<std::string, int>> split_number(const std::string& id) {
  const auto digits = id.find_last_not_of("0123456789");
  if (digits == std::string::npos || digits + 1 == id.size()) return std::nullopt;
  return std::pair{id.substr(0, digits + 1), std::stoi(id.substr(digits + 1))};
}

}  // namespace

std::vector<std::string> expand_id_ranges(const std::string& text) {
  std::vector<std::string> ids;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = std::min(text.find(',', start), text.size());
    const std::string item = trimmed(text.substr(start, comma - start));
    start = comma + 1;
    if (item.empty()) continue;
    const auto dots = item.find(kEllipsis);
    if (dots == std::string::npos) {
      ids.push_back(item);
      continue;
    }
    const auto first = split_number(trimmed(item.substr(0, dots)));
    const auto last = split_number(trimmed(item.substr(dots + kEllipsis.size())));
    if (!first || !last || first->first != last->first || first->second > last->second) {
      throw std::invalid_argument("not a range of ids: " + item);
    }
    for (int n = first->second; n <= last->second; ++n) {
      ids.push_back(first->first + std::to_string(n));
    }
  }
  return ids;
}

Coverage load_coverage(const std::string& directory) {
  Coverage coverage;
  for (const auto& path : markdown_files(directory)) {
    for (const MarkdownTable& table : read_markdown_tables(path)) {
      if (table.header.empty()) continue;
      const std::string& kind = table.header.back();
      for (const auto& cells : table.rows) {
        const auto cell = [&](std::size_t i) { return i < cells.size() ? cells[i] : ""; };
        if (kind == "ids") {
          for (auto& id : expand_id_ranges(cell(table.header.size() - 1))) {
            coverage.inventory.push_back(std::move(id));
          }
        } else if (kind == "covered by") {
          coverage.aliases.push_back({table.file, cell(0), cell(table.header.size() - 1)});
        } else if (kind == "not yet covered because") {
          coverage.gaps.push_back(
              {table.file, cell(0), cell(table.header.size() - 2), cell(table.header.size() - 1)});
        }
      }
    }
  }
  return coverage;
}

std::vector<std::string> coverage_problems(const std::vector<CatalogEntry>& catalog,
                                           const Coverage& coverage) {
  std::vector<std::string> problems;
  std::map<std::string, std::string> place;  // id → where it is
  for (const auto& entry : catalog) {
    if (!entry.tests.empty()) place.emplace(entry.id, entry.file + " (with tests)");
  }
  const std::set<std::string> inventory(coverage.inventory.begin(), coverage.inventory.end());
  const auto claim = [&](const std::string& id, const std::string& where) {
    const auto [it, fresh] = place.emplace(id, where);
    if (!fresh) problems.push_back(id + " is " + where + " and also in " + it->second);
    if (!inventory.count(id)) {
      problems.push_back(id + " is " + where + " but is no id of the design notes' inventory");
    }
  };
  for (const auto& alias : coverage.aliases) {
    claim(alias.id, alias.file + " (covered by " + alias.covered_by + ")");
  }
  for (const auto& gap : coverage.gaps) {
    claim(gap.id, gap.file + " (not yet covered)");
    if (gap.reason.empty()) problems.push_back(gap.id + " is not yet covered but says no reason");
  }
  for (const auto& alias : coverage.aliases) {
    const auto target = place.find(alias.covered_by);
    if (target == place.end() || !target->second.ends_with("(with tests)")) {
      problems.push_back(alias.id + " is covered by " + alias.covered_by +
                         ", which has no catalog row with tests");
    }
  }
  for (const auto& id : coverage.inventory) {
    if (!place.count(id)) {
      problems.push_back("design-note id " + id +
                         " is in no catalog row with tests, no \"covered by\" row and no \"not "
                         "yet covered\" row");
    }
  }
  return problems;
}

}  // namespace ssp::harness
