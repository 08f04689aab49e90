// The requirements catalog and the suite agree (docs/requirements/*.md).
#include "harness/catalog.hpp"
#include "harness/spec.hpp"

#include <gtest/gtest.h>

namespace ssp::harness {
namespace {

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
  const auto mentions = [&](const std::string& text) {
    return std::any_of(problems.begin(), problems.end(),
                       [&](const std::string& p) { return p.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(mentions("Suite.R1_Missing, which does not exist"));
  EXPECT_TRUE(mentions("Suite.R2_Misfiled is listed under R1"));
  EXPECT_TRUE(mentions("R1 is also listed in a.md"));
  EXPECT_TRUE(mentions("Suite.R4_Uncataloged is in no row"));
  EXPECT_FALSE(mentions("OtherBinary")) << "suites of other executables are not checked here";
  EXPECT_EQ(problems.size(), 4u);
}

}  // namespace
}  // namespace ssp::harness
