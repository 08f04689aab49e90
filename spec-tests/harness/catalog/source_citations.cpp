#include "harness/catalog/source_citations.hpp"

#include <regex>
#include <stdexcept>

#include "harness/util/markdown_tables.hpp"

namespace ssp::harness {
namespace {

// "§6.4 MUST#2", "Conventions MUST NOT#1".
const std::regex kKeywordCitation(R"(^(\S+) (MUST NOT|MUST|SHOULD NOT|SHOULD)#([1-9][0-9]*)$)");
// "diff storage.ts", "diff storage.ts @@2".
const std::regex kDiffCitation(R"(^diff (\S+)(?: @@([1-9][0-9]*))?$)");
const std::regex kUpstreamCitation(R"(^upstream (\S+)$)");

int whole_number(const std::string& cell, const std::string& where) {
  if (cell.empty() || cell.find_first_not_of("0123456789") != std::string::npos) {
    throw std::runtime_error("docs/spec-keywords.md: " + where + " has '" + cell +
                             "', not a whole number: run scripts/spec-keywords --out");
  }
  return std::stoi(cell);
}

// Whether `keyword` may back a row at `level`.
bool backs(RequirementLevel level, const std::string& keyword) {
  if (level == RequirementLevel::must) return keyword == "MUST" || keyword == "MUST NOT";
  return keyword == "SHOULD" || keyword == "SHOULD NOT";
}

// What is wrong with one source of a MUST or SHOULD row.
std::string keyword_citation_problem(const std::string& source, RequirementLevel level,
                                     const SpecKeywordIndex& index) {
  std::smatch cited;
  if (!std::regex_match(source, cited, kKeywordCitation)) {
    return "cites '" + source + "', not a keyword occurrence written as '§6.4 MUST#2'";
  }
  if (!backs(level, cited[2])) {
    return "cites a " + cited[2].str() + ", which cannot back a " +
           std::string(requirement_level_name(level)) + " row";
  }
  if (!index.occurrences.contains({cited[1], cited[2], std::stoi(cited[3])})) {
    return "cites " + source + ", which SSP2 does not have (docs/spec-keywords.md)";
  }
  return "";
}

// What is wrong with one source of a 0.22 row.
std::string release_citation_problem(const std::string& source, const SpecKeywordIndex& index) {
  std::smatch cited;
  if (std::regex_match(source, cited, kUpstreamCitation)) {
    if (index.upstream_files.contains(cited[1])) return "";
    return "names upstream " + cited[1].str() +
           ", which upstream does not have (docs/requirements/upstream-files.md)";
  }
  if (!std::regex_match(source, cited, kDiffCitation)) {
    return "names '" + source + "', neither 'diff FILE [@@N]' nor 'upstream package/…'";
  }
  const auto file = index.diff_hunks.find(cited[1]);
  if (file == index.diff_hunks.end()) {
    return "names " + cited[1].str() + ", which is not a file of the 0.22 diff";
  }
  if (cited[2].matched && std::stoi(cited[2]) > file->second) {
    return "names hunk @@" + cited[2].str() + " of " + file->first + ", which has " +
           std::to_string(file->second);
  }
  return "";
}

}  // namespace

SpecKeywordIndex parse_spec_keyword_index(const std::string& markdown) {
  SpecKeywordIndex index;
  for (const MarkdownTable& table : markdown_tables_of(markdown, "docs/spec-keywords.md")) {
    const bool occurrences = table.header == std::vector<std::string>{"section", "keyword",
                                                                      "occurrence", "line"};
    const bool diff = table.header == std::vector<std::string>{"diff file", "path", "hunks"};
    for (const auto& row : table.rows) {
      const std::string where = row.empty() ? "a row" : "the row of " + row.front();
      if (row.size() != table.header.size()) {
        throw std::runtime_error("docs/spec-keywords.md: " + where + " has " +
                                 std::to_string(row.size()) + " cells");
      }
      if (occurrences) index.occurrences.insert({row[0], row[1], whole_number(row[2], where)});
      if (diff) index.diff_hunks[row[0]] = whole_number(row[2], where);
    }
  }
  return index;
}

std::set<std::string> parse_upstream_manifest(const std::string& markdown) {
  std::set<std::string> files;
  for (const MarkdownTable& table :
       markdown_tables_of(markdown, "docs/requirements/upstream-files.md")) {
    if (table.header != std::vector<std::string>{"path"}) continue;
    for (const auto& row : table.rows) {
      std::string path = row.empty() ? "" : row.front();
      if (path.size() >= 2 && path.front() == '`' && path.back() == '`') {
        path = path.substr(1, path.size() - 2);
      }
      if (path.empty()) {
        throw std::runtime_error("docs/requirements/upstream-files.md: a row names no path");
      }
      files.insert(path);
    }
  }
  return files;
}

std::vector<std::string> source_problems(const std::vector<CatalogEntry>& catalog,
                                         const SpecKeywordIndex& index) {
  std::vector<std::string> problems;
  for (const CatalogEntry& entry : catalog) {
    if (entry.kind != "conformance") continue;
    const auto level = parse_requirement_level(entry.level);
    if (!level || *level == RequirementLevel::reference) continue;
    const std::string where = entry.file + ": " + entry.id + " (" + entry.level + ") ";
    const auto sources = level_sources(entry.level);
    if (sources.empty()) {
      problems.push_back(where + (*level == RequirementLevel::release
                                      ? "names no file of the 0.22 release, as in '0.22 (diff "
                                        "storage.ts @@2)'"
                                      : "cites no keyword occurrence of SSP2, as in "
                                        "'MUST (§6.4 MUST#2)'"));
      continue;
    }
    for (const std::string& source : sources) {
      const std::string problem = *level == RequirementLevel::release
                                      ? release_citation_problem(source, index)
                                      : keyword_citation_problem(source, *level, index);
      if (!problem.empty()) problems.push_back(where + problem);
    }
  }
  return problems;
}

}  // namespace ssp::harness
