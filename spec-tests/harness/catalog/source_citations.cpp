#include "harness/catalog/source_citations.hpp"

#include <algorithm>
#include <regex>
#include <stdexcept>

#include "harness/catalog/section_ids.hpp"
#include "harness/util/markdown_tables.hpp"

namespace ssp::harness {
namespace {

// "§6.4 MUST#2", "Conventions MUST NOT#1".
const std::regex kKeywordCitation(R"(^(\S+) (MUST NOT|MUST|SHOULD NOT|SHOULD)#([1-9][0-9]*)$)");
// "diff storage.ts", "diff storage.ts @@2".
const std::regex kDiffCitation(R"(^diff (\S+)(?: @@([1-9][0-9]*))?$)");
const std::regex kUpstreamCitation(R"(^upstream (\S+)$)");
// "§11.2 S#1 [d0006b79]": a sentence and the hash of its words.
const std::regex kSentenceCitation(R"(^(\S+) S#([1-9][0-9]*) \[([0-9a-f]{8})\]$)");
const std::regex kSentenceHash(R"(^[0-9a-f]{8}$)");

int whole_number(const std::string& cell, const std::string& file, const std::string& where) {
  if (cell.empty() || cell.find_first_not_of("0123456789") != std::string::npos) {
    throw std::runtime_error(file + ": " + where + " has '" + cell +
                             "', not a whole number: run scripts/spec-keywords --out");
  }
  return std::stoi(cell);
}

// The cells of an index row, or std::runtime_error naming the row when it has
// not as many as its header.
const std::vector<std::string>& index_row(const MarkdownTable& table,
                                          const std::vector<std::string>& row,
                                          const std::string& where) {
  if (row.size() != table.header.size()) {
    throw std::runtime_error(table.file + ": " + where + " has " + std::to_string(row.size()) +
                             " cells");
  }
  return row;
}

// What is wrong with a sentence citation (`cited` matched kSentenceCitation).
std::string sentence_citation_problem(const std::smatch& cited, const SpecKeywordIndex& index) {
  const auto sentence = index.sentences.find({cited[1], std::stoi(cited[2])});
  if (sentence == index.sentences.end()) {
    return "cites " + cited[0].str() + ", a sentence SSP2 does not have (docs/spec-sentences.md)";
  }
  if (sentence->second != cited[3]) {
    return "cites " + cited[0].str() + ", but that sentence's words now hash to " +
           sentence->second + ": SPEC.md reworded or moved it; re-read it and cite it again";
  }
  return "";
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
    for (const auto& cells : table.rows) {
      const std::string where = cells.empty() ? "a row" : "the row of " + cells.front();
      const auto& row = index_row(table, cells, where);
      if (occurrences) {
        index.occurrences.insert({row[0], row[1], whole_number(row[2], table.file, where)});
      }
      if (diff) index.diff_hunks[row[0]] = whole_number(row[2], table.file, where);
    }
  }
  return index;
}

std::map<std::pair<std::string, int>, std::string> parse_spec_sentence_index(
    const std::string& markdown) {
  std::map<std::pair<std::string, int>, std::string> sentences;
  for (const MarkdownTable& table : markdown_tables_of(markdown, "docs/spec-sentences.md")) {
    if (table.header != std::vector<std::string>{"section", "sentence", "line", "hash"}) continue;
    for (const auto& cells : table.rows) {
      const std::string where = cells.empty() ? "a row" : "the row of " + cells.front();
      const auto& row = index_row(table, cells, where);
      if (!std::regex_match(row[3], kSentenceHash)) {
        throw std::runtime_error(table.file + ": " + where + " has hash '" + row[3] +
                                 "', not 8 hex digits: run scripts/spec-keywords --out");
      }
      sentences[{row[0], whole_number(row[1], table.file, where)}] = row[3];
    }
  }
  return sentences;
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
    const auto own_sections = section_ids(entry.section);
    const auto is_own = [&](const std::string& section) {
      return std::find(own_sections.begin(), own_sections.end(), section) != own_sections.end();
    };
    bool rests_on_a_source = false;   // a keyword occurrence, or a file of the release
    bool cites_its_section = false;   // a keyword occurrence or a sentence of its own
    const std::size_t problems_before = problems.size();
    for (const std::string& source : sources) {
      std::smatch cited;
      std::string problem;
      if (std::regex_match(source, cited, kSentenceCitation)) {
        problem = sentence_citation_problem(cited, index);
        cites_its_section = cites_its_section || is_own(cited[1]);
      } else {
        problem = *level == RequirementLevel::release
                      ? release_citation_problem(source, index)
                      : keyword_citation_problem(source, *level, index);
        rests_on_a_source = true;
        if (std::regex_match(source, cited, kKeywordCitation)) {
          cites_its_section = cites_its_section || is_own(cited[1]);
        }
      }
      if (!problem.empty()) problems.push_back(where + problem);
    }
    if (!rests_on_a_source) {
      problems.push_back(where + (*level == RequirementLevel::release
                                      ? "cites only sentences of SSP2: a 0.22 row rests on a "
                                        "file of the release"
                                      : "cites only sentences of SSP2: a sentence without a "
                                        "keyword backs no MUST or SHOULD (docs/decisions.md)"));
    } else if (*level != RequirementLevel::release && !cites_its_section &&
               problems.size() == problems_before) {
      problems.push_back(where + "reaches its keyword only through another section: cite the "
                                 "sentence of " + entry.section + " that says what it tests, "
                                 "as '" +
                                 (own_sections.empty() ? "§1" : own_sections.front()) +
                                 " S#1 [hash]' (docs/spec-sentences.md)");
    }
  }
  return problems;
}

}  // namespace ssp::harness
