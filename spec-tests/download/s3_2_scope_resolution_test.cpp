// SSP2 §3.2 rules 4–5: effective = requested ∩ allowed, and when the result
// revokes (SR-R* in docs/requirements/download.md), asked of the candidate's
// scope area. The resolver's throw and outage are covered where they matter,
// in the download tests (DL-R4).
#include <gmock/gmock.h>

#include "harness/catalog/spec.hpp"
#include "harness/gates/capability_gate.hpp"
#include "ssp/scopes/scope_resolution.hpp"

namespace ssp::harness {
namespace {

// A plain TEST suite: SR-R5 (s5_5_scopes_header_test.cpp) shares the suite
// name, so each test gates itself instead of a fixture's SetUp.
EffectiveScopes effective(const ScopeMap& requested, const ScopeMap& allowed) {
  return current_candidate().scope().effective(requested, allowed);
}

TEST(ScopeResolution, SR_R1_EffectiveIsTheIntersectionPerRequestedKey) {
  record_spec("§3.2", "SR-R1");
  SSP_REQUIRE_CAPABILITY(current_candidate(), Capability::scope);
  const auto answer = effective({{"project_id", {"p1", "p3"}}, {"org_id", {"o1"}}},
                                {{"project_id", {"p1", "p2"}},
                                 {"org_id", {"o1", "o2"}},
                                 {"team_id", {"t1"}}});
  EXPECT_EQ(answer.status, ScopeStatus::active);
  // team_id is only allowed, never requested: it does not enter.
  EXPECT_EQ(answer.scopes, (ScopeMap{{"project_id", {"p1"}}, {"org_id", {"o1"}}}));
  EXPECT_TRUE(answer.revoked_because.empty());
}

TEST(ScopeResolution, SR_R2_AllowedWildcardPassesRequestedValuesThrough) {
  record_spec("§3.2", "SR-R2");
  SSP_REQUIRE_CAPABILITY(current_candidate(), Capability::scope);
  const auto answer = effective({{"project_id", {"p9", "p8"}}}, {{"project_id", {"p1", "*"}}});
  EXPECT_EQ(answer.status, ScopeStatus::active);
  EXPECT_EQ(answer.scopes, (ScopeMap{{"project_id", {"p9", "p8"}}}));
}

TEST(ScopeResolution, SR_R3_MissingKeyOrEmptyIntersectionRevokesTheWhole) {
  record_spec("§3.2", "SR-R3");
  SSP_REQUIRE_CAPABILITY(current_candidate(), Capability::scope);
  const auto missing =
      effective({{"project_id", {"p1"}}, {"org_id", {"o1"}}}, {{"project_id", {"p1"}}});
  EXPECT_EQ(missing.status, ScopeStatus::revoked);
  EXPECT_TRUE(missing.scopes.empty());

  const auto disjoint = effective({{"project_id", {"p1"}}, {"org_id", {"o1"}}},
                                  {{"project_id", {"p1"}}, {"org_id", {"o2"}}});
  EXPECT_EQ(disjoint.status, ScopeStatus::revoked);
  EXPECT_TRUE(disjoint.scopes.empty());

  const auto empty_list = effective({{"project_id", {}}}, {{"project_id", {"*"}}});
  EXPECT_EQ(empty_list.status, ScopeStatus::revoked);
}

// Reference level (docs/decisions.md, "error messages"): §3.2 words no reason.
TEST(ScopeResolution, SR_R3_REF_TheRevocationNamesTheMissingKey) {
  record_spec("§3.2", "SR-R3-REF");
  SSP_REQUIRE_CAPABILITY(current_candidate(), Capability::scope);
  const auto missing =
      effective({{"project_id", {"p1"}}, {"org_id", {"o1"}}}, {{"project_id", {"p1"}}});
  EXPECT_THAT(missing.revoked_because, ::testing::HasSubstr("org_id"));
}

TEST(ScopeResolution, SR_R4_EmptyRequestRevokes) {
  record_spec("§3.2", "SR-R4");
  SSP_REQUIRE_CAPABILITY(current_candidate(), Capability::scope);
  const auto answer = effective({}, {{"project_id", {"*"}}});
  EXPECT_EQ(answer.status, ScopeStatus::revoked);
  EXPECT_TRUE(answer.scopes.empty());
}

}  // namespace
}  // namespace ssp::harness
