#include "harness/catalog/section_ids.hpp"

#include <algorithm>
#include <cctype>

#include "harness/util/markdown_tables.hpp"

namespace ssp::harness {
namespace {

constexpr std::string_view kSectionSign = "\u00a7";

// "§5.9.1" → {5, 9, 1}; only for numbered sections.
std::vector<int> section_numbers(std::string_view id) {
  std::vector<int> numbers;
  id.remove_prefix(kSectionSign.size());
  int current = 0;
  for (const char c : id) {
    if (c == '.') {
      numbers.push_back(current);
      current = 0;
    } else {
      current = current * 10 + (c - '0');
    }
  }
  numbers.push_back(current);
  return numbers;
}

}  // namespace

std::vector<std::string> section_ids(std::string_view cell) {
  std::vector<std::string> ids;
  while (!cell.empty()) {
    const auto comma = cell.find(',');
    const std::string id = trimmed(std::string(cell.substr(0, comma)));
    if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    if (comma == std::string_view::npos) break;
    cell.remove_prefix(comma + 1);
  }
  return ids;
}

bool is_numbered_section(std::string_view id) {
  if (!id.starts_with(kSectionSign)) return false;
  id.remove_prefix(kSectionSign.size());
  bool digit_expected = true;
  for (const char c : id) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digit_expected = false;
    } else if (c == '.' && !digit_expected) {
      digit_expected = true;
    } else {
      return false;
    }
  }
  return !digit_expected;
}

bool section_before(std::string_view a, std::string_view b) {
  const bool a_numbered = is_numbered_section(a);
  const bool b_numbered = is_numbered_section(b);
  if (a_numbered != b_numbered) return a_numbered;
  if (!a_numbered) return a < b;
  return section_numbers(a) < section_numbers(b);
}

}  // namespace ssp::harness
