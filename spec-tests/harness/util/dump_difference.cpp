#include "harness/util/dump_difference.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace ssp::harness {
namespace {

constexpr std::size_t kLinesShown = 3;
constexpr std::size_t kLineLength = 160;

using Sections = std::map<std::string, std::multiset<std::string>>;

Sections sections_of(const std::string& dump) {
  Sections sections;
  std::string section = "(before the first table)";
  std::istringstream in(dump);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("== ", 0) == 0) {
      section = line.substr(3);
      sections[section];
    } else {
      sections[section].insert(line);
    }
  }
  return sections;
}

std::vector<std::string> minus(const std::multiset<std::string>& from,
                               const std::multiset<std::string>& taken) {
  std::vector<std::string> rest;
  std::set_difference(from.begin(), from.end(), taken.begin(), taken.end(),
                      std::back_inserter(rest));
  return rest;
}

void show(std::ostringstream& out, char sign, const std::vector<std::string>& lines) {
  for (std::size_t i = 0; i < lines.size() && i < kLinesShown; ++i) {
    const std::string& line = lines[i];
    out << "\n    " << sign << ' '
        << (line.size() > kLineLength ? line.substr(0, kLineLength) + "…" : line);
  }
  if (lines.size() > kLinesShown) out << "\n    " << sign << " … " << lines.size() - kLinesShown << " more";
}

}  // namespace

std::string dump_difference(const std::string& before, const std::string& after) {
  const Sections old_sections = sections_of(before);
  const Sections new_sections = sections_of(after);
  std::set<std::string> names;
  for (const auto& [name, lines] : old_sections) names.insert(name);
  for (const auto& [name, lines] : new_sections) names.insert(name);
  const std::multiset<std::string> none;
  const auto lines_of = [&](const Sections& sections, const std::string& name) -> const auto& {
    const auto found = sections.find(name);
    return found == sections.end() ? none : found->second;
  };
  std::ostringstream out;
  for (const std::string& name : names) {
    const auto& old_lines = lines_of(old_sections, name);
    const auto& new_lines = lines_of(new_sections, name);
    const std::vector<std::string> added = minus(new_lines, old_lines);
    const std::vector<std::string> dropped = minus(old_lines, new_lines);
    if (added.empty() && dropped.empty()) continue;
    out << (out.tellp() > 0 ? "\n" : "") << "  " << name << ": " << added.size() << " line(s) added, "
        << dropped.size() << " dropped";
    show(out, '+', added);
    show(out, '-', dropped);
  }
  return out.str();
}

std::string without_table(const std::string& dump, std::string_view table) {
  const std::string header = "== " + std::string(table);
  std::string kept;
  bool dropping = false;
  std::istringstream in(dump);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("== ")) dropping = line == header;
    if (!dropping) kept += line + '\n';
  }
  return kept;
}

}  // namespace ssp::harness
