#include "harness/catalog/catalog.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "harness/util/file_text.hpp"
#include "harness/util/markdown_tables.hpp"

namespace ssp::harness {
namespace {

std::string suite_of(const std::string& test) { return test.substr(0, test.find('.')); }

// "UPG-R35" → "UPG_R35_": the prefix a test of that requirement is named with.
std::string name_prefix(std::string id) {
  std::replace(id.begin(), id.end(), '-', '_');
  return id + "_";
}

std::vector<std::string> sorted_unique(std::vector<std::string> tests) {
  std::sort(tests.begin(), tests.end());
  tests.erase(std::unique(tests.begin(), tests.end()), tests.end());
  return tests;
}

// The cell of the first column whose header starts with `header`, or "" when
// the table or the row has no such column.
std::string cell_under(const MarkdownTable& table, const std::vector<std::string>& cells,
                       const std::string& header) {
  const auto column =
      std::find_if(table.header.begin(), table.header.end(),
                   [&](const std::string& cell) { return cell.starts_with(header); });
  const auto index = static_cast<std::size_t>(column - table.header.begin());
  return column == table.header.end() || index >= cells.size() ? "" : cells[index];
}

// Whether `text` holds `name` as a whole name: with no letter, digit, '_' or
// '-' just before or after it, so that "D1" is not found in "D10" nor "D3" in
// "EJ-D3".
bool mentions_name(const std::string& text, const std::string& name) {
  const auto part_of_a_name = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
  };
  for (auto at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if ((at == 0 || !part_of_a_name(text[at - 1])) &&
        (end == text.size() || !part_of_a_name(text[end]))) {
      return true;
    }
  }
  return false;
}

bool is_requirements_table(const MarkdownTable& table) {
  return table.header.size() >= 5 && table.header.front() == "id" && table.header.back() == "tests";
}

}  // namespace

std::string catalog_test_name(const std::string& suite, const std::string& test) {
  return suite.substr(suite.find('/') + 1) + "." + test.substr(0, test.find('/'));
}

std::vector<CatalogPage> read_catalog_pages(const std::string& directory) {
  std::vector<CatalogPage> pages;
  for (const auto& path : markdown_files(directory)) {
    pages.push_back({std::filesystem::path(path).filename().string(), read_text_file(path)});
  }
  return pages;
}

std::vector<CatalogEntry> load_catalog(const std::string& directory) {
  return catalog_of(read_catalog_pages(directory));
}

std::vector<CatalogEntry> catalog_of(const std::vector<CatalogPage>& pages) {
  const std::regex test_name("`([A-Za-z0-9_]+\\.[A-Za-z0-9_]+)`");
  std::vector<CatalogEntry> catalog;
  for (const CatalogPage& page : pages) {
    for (const MarkdownTable& table : markdown_tables_of(page.text, page.file)) {
      if (!is_requirements_table(table)) continue;
      for (const auto& cells : table.rows) {
        // A row short of cells keeps what it has: a missing tests cell is
        // reported like an empty one.
        const auto cell = [&](std::size_t i) { return i < cells.size() ? cells[i] : ""; };
        CatalogEntry entry{table.file,
                           cell(0),
                           cell(1),
                           cell(2),
                           {},
                           cell_under(table, cells, "kind"),
                           cell_under(table, cells, "requirement")};
        const std::string tests = cell(table.header.size() - 1);
        for (auto it = std::sregex_iterator(tests.begin(), tests.end(), test_name);
             it != std::sregex_iterator(); ++it) {
          entry.tests.push_back((*it)[1]);
        }
        catalog.push_back(std::move(entry));
      }
    }
  }
  return catalog;
}

std::map<std::string, CatalogTest> catalog_tests(const std::vector<CatalogEntry>& catalog) {
  std::map<std::string, CatalogTest> tests;
  for (const auto& entry : catalog) {
    const RequirementLevel level =
        parse_requirement_level(entry.level).value_or(RequirementLevel::must);
    for (const auto& test : entry.tests) {
      tests.emplace(test, CatalogTest{entry.id, entry.section, level});
    }
  }
  return tests;
}

std::vector<std::string> registered_tests() {
  std::vector<std::string> tests;
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (int s = 0; s < unit.total_test_suite_count(); ++s) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(s);
    for (int t = 0; t < suite.total_test_count(); ++t) {
      tests.push_back(catalog_test_name(suite.name(), suite.GetTestInfo(t)->name()));
    }
  }
  return sorted_unique(std::move(tests));
}

std::vector<std::string> tests_in_listing(const std::string& listing) {
  std::vector<std::string> tests;
  std::string suite;
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    const std::string word = trimmed(line);
    const std::string name = word.substr(0, word.find_first_of(" \t"));  // drop "# GetParam() …"
    if (name.empty()) continue;
    if (!line.starts_with(" ")) {
      suite = name.ends_with(".") ? name.substr(0, name.size() - 1) : name;
    } else if (!suite.empty()) {
      tests.push_back(catalog_test_name(suite, name));
    }
  }
  return sorted_unique(std::move(tests));
}

std::vector<std::string> catalog_problems(const std::vector<CatalogEntry>& catalog,
                                          const std::vector<std::string>& registered,
                                          RegisteredScope scope) {
  std::vector<std::string> problems;
  const std::set<std::string> known(registered.begin(), registered.end());
  std::set<std::string> suites;
  for (const auto& test : registered) suites.insert(suite_of(test));

  std::set<std::string> listed;
  std::map<std::string, std::string> id_file;
  for (const auto& entry : catalog) {
    if (!id_file.emplace(entry.id, entry.file).second) {
      problems.push_back(entry.file + ": requirement " + entry.id + " is also listed in " +
                         id_file[entry.id]);
    }
    if (entry.tests.empty()) {
      problems.push_back(entry.file + ": requirement " + entry.id +
                         " names no test (list it as not yet covered instead)");
    }
    for (const auto& test : entry.tests) {
      listed.insert(test);
      const std::string name = test.substr(test.find('.') + 1);
      if (!name.starts_with(name_prefix(entry.id))) {
        problems.push_back(entry.file + ": " + test + " is listed under " + entry.id +
                           " but is not named " + name_prefix(entry.id) + "...");
      }
      const bool checkable =
          scope == RegisteredScope::all_executables || suites.count(suite_of(test));
      if (checkable && !known.count(test)) {
        problems.push_back(entry.file + ": " + entry.id + " lists " + test +
                           ", which does not exist");
      }
    }
  }
  for (const auto& test : registered) {
    if (!listed.count(test)) problems.push_back(test + " is in no row of docs/requirements/");
  }
  return problems;
}

std::vector<std::string> kind_problems(
    const std::vector<CatalogEntry>& catalog,
    const std::map<std::string, std::vector<std::string>>& tests_by_executable) {
  const auto runs = [&](const char* executable, const std::string& test) {
    const auto found = tests_by_executable.find(executable);
    return found != tests_by_executable.end() &&
           std::binary_search(found->second.begin(), found->second.end(), test);
  };
  std::vector<std::string> problems;
  for (const auto& entry : catalog) {
    const std::string where = entry.file + ": " + entry.id + " (" + entry.kind + ") lists ";
    for (const auto& test : entry.tests) {
      const bool asks_the_candidate =
          runs(kConformanceExecutable, test) || runs(kFaultExecutable, test);
      if (entry.kind == "conformance") {
        if (!asks_the_candidate) {
          problems.push_back(where + test + ", which neither " + kConformanceExecutable +
                             " nor " + kFaultExecutable + " runs");
        }
      } else if (entry.kind == "self-test") {
        if (!runs(kSelfTestExecutable, test)) {
          problems.push_back(where + test + ", which " + kSelfTestExecutable + " does not run");
        }
        if (asks_the_candidate) {
          problems.push_back(where + test + ", which " + kConformanceExecutable + " or " +
                             kFaultExecutable +
                             " runs: a self-test asks the reference, not the candidate");
        }
      } else if (entry.kind != "harness") {
        problems.push_back(entry.file + ": " + entry.id + " has kind '" + entry.kind +
                           "', not conformance, self-test or harness");
        break;
      }
    }
  }
  return problems;
}

std::vector<std::string> level_problems(const std::vector<CatalogEntry>& catalog,
                                        const std::string& decisions) {
  std::vector<std::string> problems;
  for (const auto& entry : catalog) {
    const std::string where = entry.file + ": " + entry.id + " has level '" + entry.level + "'";
    const auto level = parse_requirement_level(entry.level);
    if (!level) {
      problems.push_back(where + ", which is none of MUST, SHOULD, 0.22 and reference (decision)");
      continue;
    }
    if (*level != RequirementLevel::reference || entry.kind != "conformance") continue;
    const auto names = level_sources(entry.level);
    if (names.empty()) {
      problems.push_back(where + ": a reference-level conformance row names its decision, "
                                 "as in 'reference (D5)'");
      continue;
    }
    // "reference (D1, D2)" names D1 and D2; each must be in docs/decisions.md.
    for (const std::string& name : names) {
      if (name.empty() || !mentions_name(decisions, name)) {
        problems.push_back(where + ": docs/decisions.md does not mention '" + name + "'");
      }
    }
  }
  return problems;
}

}  // namespace ssp::harness
