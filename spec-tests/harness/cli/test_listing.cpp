#include "harness/cli/test_listing.hpp"

namespace ssp::harness {

std::string test_listing(const std::vector<std::string>& tests,
                         const std::map<std::string, CatalogTest>& catalog,
                         const std::map<std::string, std::string>& capabilities) {
  std::string out = "test\tsections\trequirement\tlevel\tcapabilities\n";
  for (const std::string& test : tests) {
    const auto dot = test.find('.');
    const std::string name = catalog_test_name(test.substr(0, dot), test.substr(dot + 1));
    const auto row = catalog.find(name);
    const auto needs = capabilities.find(name.substr(0, name.find('.')));
    out += test + "\t";
    if (row == catalog.end()) {
      out += "(uncataloged)\t(uncataloged)\tMUST";
    } else {
      out += row->second.section + "\t" + row->second.requirement + "\t" +
             std::string(requirement_level_name(row->second.level));
    }
    out += "\t" + (needs == capabilities.end() ? std::string("-") : needs->second) + "\n";
  }
  return out;
}

}  // namespace ssp::harness
