// A conformance test of edge JSON loops over the cases that reach its site
// (harness/fixtures/edge_json_cases.hpp). A loop over none would try nothing
// and pass, so the harness refuses to hand out an empty list (HARNESS-47).
#include <gmock/gmock.h>

#include "harness/catalog/spec.hpp"
#include "harness/errors/harness_error.hpp"
#include "harness/fixtures/edge_json_cases.hpp"

namespace ssp::harness {
namespace {

using ::testing::HasSubstr;

// The message of the HarnessError `cases_reaching` throws for `cases` at the
// schema site, or "(none)".
std::string refusal(const std::vector<EdgeJsonCase>& cases) {
  const HarnessErrorsExpected provoked;
  try {
    cases_reaching(cases, "schema", "{\"version\":{value}}");
  } catch (const HarnessError& error) {
    return error.what();
  }
  return "(none)";
}

TEST(EdgeJsonCases, HARNESS_47_ALoopOverEdgeJsonCasesThatReachNoSiteIsAHarnessError) {
  record_spec("Harness", "HARNESS-47");
  const EdgeJsonCase ordinary(nlohmann::json{{"name", "ordinary"}, {"value", "1e400"}});
  const EdgeJsonCase elsewhere(nlohmann::json{
      {"name", "elsewhere"}, {"documents", {{"scope_map", "{}"}}}});
  const EdgeJsonCase ours(nlohmann::json{
      {"name", "ours"}, {"value", "2"}, {"reference_only_at", nlohmann::json::array({"schema"})}});

  EXPECT_THAT(refusal({}), HasSubstr("none of the 0 edge JSON cases reaches the site 'schema'"));
  EXPECT_THAT(refusal({elsewhere, ours}),
              HasSubstr("none of the 2 edge JSON cases reaches the site 'schema'"));

  const auto placed = cases_reaching({elsewhere, ordinary, ours}, "schema", "{\"version\":{value}}");
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_EQ(placed[0].edge_case.name(), "ordinary");
  EXPECT_EQ(placed[0].document, "{\"version\":1e400}");
  // The project's own file reaches every site the conformance tests ask.
  for (const char* site : {"scope_map", "signed_url"}) {
    EXPECT_FALSE(cases_reaching(edge_json_cases(), site, edge_json_site(site)).empty()) << site;
  }
}

}  // namespace
}  // namespace ssp::harness
