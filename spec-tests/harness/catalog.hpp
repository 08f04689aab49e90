// The requirements catalog (docs/requirements/*.md) and its traceability
// check: every test is listed under the requirement it is named after, and
// every listed test exists. This keeps the catalog readable as the spec's
// executable index instead of letting it drift.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace ssp::harness {

struct CatalogEntry {
  std::string file;  // where the row is, for messages
  std::string id;    // e.g. "R11", "UPG-R35", "B-3"
  std::string section;
  std::string level;
  std::vector<std::string> tests;  // "Suite.Test", without parameter suffixes
};

// Every table row of every docs/requirements/*.md under `directory`.
std::vector<CatalogEntry> load_catalog(const std::string& directory);

// "Suite.Test" → section for every test the catalog under `directory` lists;
// empty when the directory does not exist (a binary run outside the tree).
std::map<std::string, std::string> catalog_sections(const std::string& directory);

// A registered test, as "Suite.Test" without the "/param" suffix.
std::vector<std::string> registered_tests();

// What is wrong between the catalog and the registered tests of one
// executable (empty when nothing): a registered test no row lists, a listed
// test of a suite this executable has that does not exist, a test listed
// under an id its name does not start with, a duplicated id.
std::vector<std::string> catalog_problems(const std::vector<CatalogEntry>& catalog,
                                          const std::vector<std::string>& registered);

}  // namespace ssp::harness
