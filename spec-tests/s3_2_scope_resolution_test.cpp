// SSP2 §3.2 rules 4–5: effective = requested ∩ allowed, and when the result
// revokes (SR-R* in docs/requirements/download.md). The resolver's throw and
// outage are covered where they matter, in the download tests (DL-R4).
#include <gtest/gtest.h>

#include "harness/spec.hpp"
#include "ssp/scope_resolution.hpp"

namespace ssp::harness {
namespace {

TEST(ScopeResolution, SR_R1_EffectiveIsTheIntersectionPerRequestedKey) {
  record_spec("§3.2", "SR-R1");
  const auto effective = compute_effective({{"project_id", {"p1", "p3"}}, {"org_id", {"o1"}}},
                                           {{"project_id", {"p1", "p2"}},
                                            {"org_id", {"o1", "o2"}},
                                            {"team_id", {"t1"}}});
  EXPECT_EQ(effective.status, ScopeStatus::active);
  // team_id is only allowed, never requested: it does not enter.
  EXPECT_EQ(effective.scopes, (ScopeMap{{"project_id", {"p1"}}, {"org_id", {"o1"}}}));
  EXPECT_TRUE(effective.revoked_because.empty());
}

TEST(ScopeResolution, SR_R2_AllowedWildcardPassesRequestedValuesThrough) {
  record_spec("§3.2", "SR-R2");
  const auto effective =
      compute_effective({{"project_id", {"p9", "p8"}}}, {{"project_id", {"p1", "*"}}});
  EXPECT_EQ(effective.status, ScopeStatus::active);
  EXPECT_EQ(effective.scopes, (ScopeMap{{"project_id", {"p9", "p8"}}}));
}

TEST(ScopeResolution, SR_R3_MissingKeyOrEmptyIntersectionRevokesTheWhole) {
  record_spec("§3.2", "SR-R3");
  const auto missing = compute_effective({{"project_id", {"p1"}}, {"org_id", {"o1"}}},
                                         {{"project_id", {"p1"}}});
  EXPECT_EQ(missing.status, ScopeStatus::revoked);
  EXPECT_TRUE(missing.scopes.empty());
  EXPECT_NE(missing.revoked_because.find("'org_id'"), std::string::npos);

  const auto disjoint = compute_effective({{"project_id", {"p1"}}, {"org_id", {"o1"}}},
                                          {{"project_id", {"p1"}}, {"org_id", {"o2"}}});
  EXPECT_EQ(disjoint.status, ScopeStatus::revoked);
  EXPECT_TRUE(disjoint.scopes.empty());

  const auto empty_list = compute_effective({{"project_id", {}}}, {{"project_id", {"*"}}});
  EXPECT_EQ(empty_list.status, ScopeStatus::revoked);
}

TEST(ScopeResolution, SR_R4_EmptyRequestRevokes) {
  record_spec("§3.2", "SR-R4");
  const auto effective = compute_effective({}, {{"project_id", {"*"}}});
  EXPECT_EQ(effective.status, ScopeStatus::revoked);
  EXPECT_TRUE(effective.scopes.empty());
}

}  // namespace
}  // namespace ssp::harness
