// --list: the tests a run would run, one per line, with what the catalog says
// of each, so a reader sees the suite's shape without running it
// (docs/harness.md, "Command line").
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/catalog/catalog.hpp"

namespace ssp::harness {

// A header line, then one line per test of `tests` ("Prefix/Suite.Test/param",
// in run order), tab-separated: the test, its sections (comma-separated), its
// requirement, its level, and the capabilities its suite may ask the
// candidate for (`capabilities`: catalog suite name → keys, comma-separated;
// "-" for none). A test the catalog does not list reads "(uncataloged)".
std::string test_listing(const std::vector<std::string>& tests,
                         const std::map<std::string, CatalogTest>& catalog,
                         const std::map<std::string, std::string>& capabilities);

}  // namespace ssp::harness
