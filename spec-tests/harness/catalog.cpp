#include "harness/catalog.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

namespace ssp::harness {
namespace {

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 1;  // after the leading '|'
  for (std::size_t bar; (bar = line.find('|', start)) != std::string::npos; start = bar + 1) {
    cells.push_back(trim(line.substr(start, bar - start)));
  }
  return cells;
}

std::string suite_of(const std::string& test) { return test.substr(0, test.find('.')); }

// "UPG-R35" → "UPG_R35_": the prefix a test of that requirement is named with.
std::string name_prefix(std::string id) {
  std::replace(id.begin(), id.end(), '-', '_');
  return id + "_";
}

}  // namespace

std::vector<CatalogEntry> load_catalog(const std::string& directory) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.path().extension() == ".md") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  const std::regex test_name("`([A-Za-z0-9_]+\\.[A-Za-z0-9_]+)`");
  std::vector<CatalogEntry> catalog;
  for (const auto& path : files) {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
      if (!line.starts_with("| ")) continue;
      const std::vector<std::string> cells = cells_of(line);
      if (cells.size() < 5 || cells[0] == "id" || cells[0].starts_with("---")) continue;
      CatalogEntry entry{path.filename().string(), cells[0], cells[1], cells[2], {}};
      const std::string& tests = cells.back();
      for (auto it = std::sregex_iterator(tests.begin(), tests.end(), test_name);
           it != std::sregex_iterator(); ++it) {
        entry.tests.push_back((*it)[1]);
      }
      catalog.push_back(std::move(entry));
    }
  }
  return catalog;
}

std::map<std::string, std::string> catalog_sections(const std::string& directory) {
  std::map<std::string, std::string> sections;
  if (!std::filesystem::is_directory(directory)) return sections;
  for (const auto& entry : load_catalog(directory)) {
    for (const auto& test : entry.tests) sections.emplace(test, entry.section);
  }
  return sections;
}

std::vector<std::string> registered_tests() {
  std::vector<std::string> tests;
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (int s = 0; s < unit.total_test_suite_count(); ++s) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(s);
    std::string suite_name = suite.name();
    suite_name = suite_name.substr(suite_name.find('/') + 1);  // drop an instantiation prefix
    for (int t = 0; t < suite.total_test_count(); ++t) {
      const std::string name = suite.GetTestInfo(t)->name();
      tests.push_back(suite_name + "." + name.substr(0, name.find('/')));
    }
  }
  std::sort(tests.begin(), tests.end());
  tests.erase(std::unique(tests.begin(), tests.end()), tests.end());
  return tests;
}

std::vector<std::string> catalog_problems(const std::vector<CatalogEntry>& catalog,
                                          const std::vector<std::string>& registered) {
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
    for (const auto& test : entry.tests) {
      listed.insert(test);
      const std::string name = test.substr(test.find('.') + 1);
      if (!name.starts_with(name_prefix(entry.id))) {
        problems.push_back(entry.file + ": " + test + " is listed under " + entry.id +
                           " but is not named " + name_prefix(entry.id) + "...");
      }
      if (suites.count(suite_of(test)) && !known.count(test)) {
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

}  // namespace ssp::harness
