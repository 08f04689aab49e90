#include "harness/catalog/spec_sections.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "harness/catalog/section_ids.hpp"

namespace ssp::harness {

std::string spec_document_path(const std::string& source_dir) {
  return (std::filesystem::path(source_dir) / ".." / "shared" / "spec" / "SPEC.md")
      .lexically_normal();
}

std::vector<std::string> spec_section_ids(const std::string& spec_markdown) {
  const std::regex numbered("^#{2,6} +([0-9]+(\\.[0-9]+)*)\\.? ");
  const std::regex conventions("^## +Conventions\\b");
  std::vector<std::string> ids;
  std::istringstream lines(spec_markdown);
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    std::string id;
    if (std::regex_search(line, match, numbered)) {
      id = "\u00a7" + match[1].str();
    } else if (std::regex_search(line, conventions)) {
      id = "Conventions";
    }
    if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }
  return ids;
}

std::vector<std::string> listed_section_ids(const std::string& list_text) {
  std::vector<std::string> ids;
  std::istringstream lines(list_text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.starts_with("#")) continue;
    ids.push_back(line);
  }
  return ids;
}

std::vector<RecordedSection> recorded_sections(const std::string& file, const std::string& source) {
  const std::regex call("record_spec\\(\\s*\"([^\"]*)\"\\s*,\\s*\"([^\"]*)\"\\s*\\)");
  std::vector<RecordedSection> found;
  for (auto it = std::sregex_iterator(source.begin(), source.end(), call);
       it != std::sregex_iterator(); ++it) {
    found.push_back({file, (*it)[1].str(), (*it)[2].str()});
  }
  return found;
}

std::vector<std::string> section_problems(const std::vector<CatalogEntry>& catalog,
                                          const std::vector<RecordedSection>& recorded,
                                          const std::vector<std::string>& known) {
  const std::set<std::string> spec(known.begin(), known.end());
  const std::set<std::string> areas(kHarnessAreas.begin(), kHarnessAreas.end());
  std::vector<std::string> problems;
  std::map<std::string, std::vector<std::string>> row_sections;
  for (const CatalogEntry& row : catalog) {
    const std::vector<std::string> ids = section_ids(row.section);
    row_sections[row.id] = ids;
    const bool may_name_an_area = row.kind == "harness" || row.kind == "self-test";
    if (ids.empty()) problems.push_back(row.file + ": " + row.id + " names no section");
    for (const std::string& id : ids) {
      if (spec.count(id) || (may_name_an_area && areas.count(id))) continue;
      problems.push_back(row.file + ": " + row.id + " names section \"" + id + "\", which " +
                         (id.find(' ') != std::string::npos
                              ? std::string("is not one id: separate ids with commas, notes "
                                            "go in the requirement's text")
                              : std::string("SSP2 does not have (fixtures/spec-sections.txt)")));
    }
  }
  for (const RecordedSection& call : recorded) {
    const auto row = row_sections.find(call.requirement);
    if (row == row_sections.end()) {
      problems.push_back(call.file + ": record_spec names requirement " + call.requirement +
                         ", which no catalog row has");
      continue;
    }
    for (const std::string& id : section_ids(call.section)) {
      if (std::find(row->second.begin(), row->second.end(), id) == row->second.end()) {
        problems.push_back(call.file + ": " + call.requirement + " records section \"" + id +
                           "\", which its catalog row does not name");
      }
    }
  }
  return problems;
}

}  // namespace ssp::harness
