// The requirements catalog and the suite agree (docs/requirements/*.md).
#include "harness/catalog.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "harness/file_text.hpp"
#include "harness/spec.hpp"

namespace ssp::harness {
namespace {

// Whether one of `problems` contains `text`.
bool mentions(const std::vector<std::string>& problems, const std::string& text) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const std::string& p) { return p.find(text) != std::string::npos; });
}

TEST(Catalog, TRACE_1_EveryTestIsCatalogedUnderItsRequirement) {
  record_spec("Catalog", "TRACE-1");
  const auto catalog = load_catalog(std::string(SSP_SOURCE_DIR) + "/docs/requirements");
  ASSERT_FALSE(catalog.empty());
  for (const auto& problem : catalog_problems(catalog, registered_tests())) {
    ADD_FAILURE() << problem;
  }
}

TEST(Catalog, TRACE_2_TheCheckFindsEachKindOfDrift) {
  record_spec("Catalog", "TRACE-2");
  const std::vector<CatalogEntry> catalog = {
      {"a.md", "R1", "§5.1", "MUST", {"Suite.R1_Exists", "Suite.R1_Missing", "Suite.R2_Misfiled"}},
      {"b.md", "R1", "§5.1", "MUST", {}},
      {"b.md", "R3", "§5.1", "MUST", {"OtherBinary.R3_NotOurs"}},
  };
  const std::vector<std::string> registered = {"Suite.R1_Exists", "Suite.R2_Misfiled",
                                               "Suite.R4_Uncataloged"};
  const auto problems = catalog_problems(catalog, registered);
  EXPECT_TRUE(mentions(problems, "Suite.R1_Missing, which does not exist"));
  EXPECT_TRUE(mentions(problems, "Suite.R2_Misfiled is listed under R1"));
  EXPECT_TRUE(mentions(problems, "R1 is also listed in a.md"));
  EXPECT_TRUE(mentions(problems, "Suite.R4_Uncataloged is in no row"));
  EXPECT_FALSE(mentions(problems, "OtherBinary"))
      << "suites of other executables are not checked here";
  EXPECT_EQ(problems.size(), 5u);  // and b.md's R1 names no test (TRACE-3)
}

TEST(Catalog, TRACE_3_ARowWithoutAnExistingTestIsReported) {
  record_spec("Catalog", "TRACE-3");
  const std::vector<CatalogEntry> catalog = {
      {"a.md", "R1", "§5.1", "MUST", {"Suite.R1_Exists"}},
      {"a.md", "R2", "§5.1", "MUST", {}},
      {"a.md", "R3", "§5.1", "MUST", {"Elsewhere.R3_Gone"}},
  };
  const std::vector<std::string> registered = {"Suite.R1_Exists"};
  // One executable: the empty row is a problem; another suite may live elsewhere.
  const auto here = catalog_problems(catalog, registered);
  EXPECT_TRUE(mentions(here, "requirement R2 names no test"));
  EXPECT_FALSE(mentions(here, "Elsewhere"));
  EXPECT_EQ(here.size(), 1u);
  // Every executable: a listed test of a suite none of them has is missing.
  const auto everywhere = catalog_problems(catalog, registered, RegisteredScope::all_executables);
  EXPECT_TRUE(mentions(everywhere, "R3 lists Elsewhere.R3_Gone, which does not exist"));
  EXPECT_EQ(everywhere.size(), 2u);
}

TEST(Catalog, TRACE_8_EveryRowHasALevelAndAReferenceRowNamesItsDecision) {
  record_spec("Catalog", "TRACE-8");
  const std::string decisions = read_text_file(std::string(SSP_SOURCE_DIR) + "/docs/decisions.md");
  const auto catalog = load_catalog(std::string(SSP_SOURCE_DIR) + "/docs/requirements");
  ASSERT_FALSE(catalog.empty());
  for (const auto& problem : level_problems(catalog, decisions)) ADD_FAILURE() << problem;

  // Each kind of drift, on rows written here.
  CatalogEntry row{"a.md", "R1", "§5.1", "MUST", {"Suite.R1_X"}};
  std::vector<CatalogEntry> rows;
  for (const char* level : {"MUST", "SHOULD", "reference (D5)", "DECISION", "reference",
                            "reference (D5, Q99)"}) {
    row.level = level;
    rows.push_back(row);
  }
  row.kind = "self-test";
  row.level = "reference";
  rows.push_back(row);  // a self-test's decision is informative only
  const auto problems = level_problems(rows, "| D5 find tie-break |");
  EXPECT_TRUE(mentions(problems, "level 'DECISION', which is none of"));
  EXPECT_TRUE(mentions(problems, "level 'reference': a reference-level conformance row names"));
  EXPECT_TRUE(mentions(problems, "does not mention 'Q99'"));
  EXPECT_EQ(problems.size(), 3u);
}

}  // namespace
}  // namespace ssp::harness
