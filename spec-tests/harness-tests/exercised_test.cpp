// What a run exercised (harness/verdict/exercised.hpp), rule by rule, on
// records written here: each rule that makes a run not a pass names what did
// not run, and a run that exercised enough has no problem.
#include "harness/verdict/exercised.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "harness/catalog/spec.hpp"

namespace ssp::harness {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// A record of `test` as a run ends it. (Its name is its own: in a unity build
// this file shares one translation unit with the other harness tests.)
TestRecord test_ended(const std::string& test, const char* backend, TestOutcome outcome,
                      bool counts = true, const std::string& reason = "") {
  TestRecord r;
  r.name = r.catalog_name = test;
  if (backend != nullptr) r.backend = backend;
  r.outcome = outcome;
  r.counts = counts;
  r.reason = reason;
  return r;
}

ExerciseRules exercise_rules_of_a_run() {
  ExerciseRules r;
  r.areas_by_suite = {{"Push", {"push", "schema"}}, {"Segments", {"segment_store"}}};
  r.declared_areas = {"push", "schema", "segment_store"};
  r.unreachable_backends = {{"postgres", "SSP_PG_DSN is not set"}};
  return r;
}

constexpr auto kRan = TestOutcome::passed;
constexpr auto kSkipped = TestOutcome::skipped;

TEST(Exercised, HARNESS_50_EachRuleNamesWhatDidNotRun) {
  record_spec("Harness", "HARNESS-50");
  // Enough: each declared area and reachable backend ran a counted test; the
  // unreachable backend's skips are listed, not judged.
  const auto enough = what_was_exercised(
      {test_ended("Push.A", "sqlite", kRan), test_ended("Segments.B", "memory", kRan),
       test_ended("Push.A", "postgres", kSkipped, true, "no server"),
       test_ended("Catalog.C", nullptr, kRan)},
      exercise_rules_of_a_run());
  EXPECT_THAT(enough.not_exercised, IsEmpty());
  EXPECT_EQ(enough.unreachable.at("postgres"), "SSP_PG_DSN is not set");
  ASSERT_EQ(enough.parts.size(), 5u);  // push, schema: sqlite, postgres; segment_store: memory
  EXPECT_EQ(enough.parts[0].area, "push");
  EXPECT_EQ(enough.parts[0].backend, "postgres");
  EXPECT_EQ(enough.parts[0].skipped, 1);

  EXPECT_THAT(what_was_exercised({}, exercise_rules_of_a_run()).not_exercised,
              ElementsAre("no test was selected: the filter matches none"));
  EXPECT_THAT(what_was_exercised({test_ended("Push.A", "sqlite", kSkipped, true, "why")}, exercise_rules_of_a_run())
                  .not_exercised,
              ElementsAre("no test ran: every one of the 1 selected was skipped"));
  // The catalog's own checks ran, nothing that asks the candidate did; a
  // test whose level the profile does not count exercises nothing.
  EXPECT_THAT(what_was_exercised({test_ended("Catalog.C", nullptr, kRan),
                                  test_ended("Push.A", "sqlite", kRan, false)},
                                 exercise_rules_of_a_run())
                  .not_exercised,
              ElementsAre("no test that asks the candidate ran and counts: 1 selected"));
  // A declared area, and a backend, whose every test skipped.
  const auto area = what_was_exercised(
      {test_ended("Segments.B", "sqlite", kRan), test_ended("Push.A", "sqlite", kSkipped, true, "v1")},
      exercise_rules_of_a_run());
  EXPECT_THAT(area.not_exercised,
              ElementsAre("declared area push: every test was skipped (1 skipped: v1)",
                          "declared area schema: every test was skipped (1 skipped: v1)"));
  const auto backend = what_was_exercised(
      {test_ended("Segments.B", "sqlite", kRan), test_ended("Segments.B", "memory", kSkipped, true, "x")},
      exercise_rules_of_a_run());
  EXPECT_THAT(backend.not_exercised,
              ElementsAre("backend memory: every test was skipped (1 skipped: x)"));
  // An area whose tests ran at a level the profile does not count was
  // answered: it is reported, not held against the run.
  const auto uncounted = what_was_exercised(
      {test_ended("Segments.B", "sqlite", kRan), test_ended("Push.A", "sqlite", kRan, false)}, exercise_rules_of_a_run());
  EXPECT_THAT(uncounted.not_exercised, IsEmpty());
  ASSERT_EQ(uncounted.parts.size(), 3u);
  EXPECT_EQ(uncounted.parts[0].ran, 0);
  EXPECT_EQ(uncounted.parts[0].ran_not_counted, 1);
  EXPECT_THAT(format_exercised(uncounted), HasSubstr("push: sqlite 0 ran, 1 ran not counted, 0 skipped"));
}

TEST(Exercised, HARNESS_50_AClaimOnAPartThatRanNothingFails) {
  record_spec("Harness", "HARNESS-50");
  const std::vector<std::string> known = {"push", "schema", "segment_store"};
  ExerciseRules claimed = exercise_rules_of_a_run();
  claimed.claims = parse_claims("push@sqlite,segment_store@memory,push@postgres,schema@memory",
                                known);
  const auto run = what_was_exercised(
      {test_ended("Push.A", "sqlite", kRan), test_ended("Segments.B", "memory", kRan),
       test_ended("Push.A", "postgres", kSkipped, true, "no server")},
      claimed);
  EXPECT_THAT(run.not_exercised,
              ElementsAre("claim push@postgres: not exercised (SSP_PG_DSN is not set)",
                          "claim schema@memory: not exercised (no test of it was selected)"));
  // Each claim is reported with what ran on it, in the order claimed.
  std::vector<std::string> checks;
  for (const ClaimCheck& check : run.claims) {
    checks.push_back(check.claim.area + "@" + check.claim.backend + " " +
                     std::to_string(check.ran) + (check.exercised ? " exercised" : " not"));
  }
  EXPECT_THAT(checks, ElementsAre("push@sqlite 1 exercised", "segment_store@memory 1 exercised",
                                  "push@postgres 0 not", "schema@memory 0 not"));
  // A claimed part that ran only uncounted tests was not exercised.
  ExerciseRules one = exercise_rules_of_a_run();
  one.claims = parse_claims("push@sqlite", known);
  EXPECT_THAT(what_was_exercised({test_ended("Segments.B", "sqlite", kRan),
                                  test_ended("Push.A", "sqlite", kRan, false)},
                                 one)
                  .not_exercised,
              ElementsAre("claim push@sqlite: not exercised (1 ran at levels the profile does "
                          "not count)"));
  for (const char* wrong : {"push", "push@", "pushes@sqlite", "push@oracle", ""}) {
    EXPECT_THROW(parse_claims(wrong, known), std::invalid_argument) << wrong;
  }
  try {
    parse_claims("push@sqlite,pushes@sqlite", known);
    ADD_FAILURE() << "an unknown area is refused";
  } catch (const std::invalid_argument& refused) {
    EXPECT_THAT(refused.what(), HasSubstr("'pushes@sqlite' is not AREA@BACKEND"));
  }
}

// A skip for an area the candidate does not declare, as the capability
// gate records it.
TestRecord skipped_for(const std::string& test, const char* backend, const std::string& area) {
  TestRecord r = test_ended(test, backend, kSkipped, true, "lacks " + area);
  r.missing_capability = area;
  return r;
}

ExerciseRules rules_of_a_segment_store() {
  ExerciseRules r;
  r.areas_by_suite = {{"Scope", {"scope"}},
                      {"Segments", {"segment_store", "hooks"}},
                      {"Download", {"segment_store", "download"}}};
  r.declared_areas = {"segment_store"};
  r.undeclared_areas = {"scope", "download"};
  return r;
}

TEST(Exercised, HARNESS_58_ARunIsJudgedOnTheAreasTheCandidateDeclares) {
  record_spec("Harness", "HARNESS-58");
  // A segment store alone: the tests of areas it does not declare (scope,
  // download) are not claimed; they judge no part, and the run is a pass.
  const auto run = what_was_exercised(
      {test_ended("Segments.A", "sqlite", kRan), skipped_for("Scope.B", nullptr, "scope"),
       skipped_for("Scope.C", nullptr, "scope"), skipped_for("Download.D", "sqlite", "download")},
      rules_of_a_segment_store());
  EXPECT_THAT(run.not_exercised, IsEmpty());
  EXPECT_EQ(run.not_claimed.at("scope"), 2);
  EXPECT_EQ(run.not_claimed.at("download"), 1);
  ASSERT_EQ(run.parts.size(), 1u);  // segment_store on sqlite: the not claimed test is not in it
  EXPECT_EQ(run.parts[0].skipped, 0);
  EXPECT_THAT(format_exercised(run),
              HasSubstr("not claimed (skipped for an area the candidate does not declare; judged "
                        "nowhere): 3 (download 1, scope 2)"));

  // A skip for a mechanism of a declared area (hook points) is no claim
  // withdrawn: it stays skipped, and a backend left with only such skips is
  // still not a pass.
  const auto mechanism = what_was_exercised(
      {skipped_for("Segments.A", "sqlite", "hooks"), test_ended("Segments.A", "memory", kRan)},
      rules_of_a_segment_store());
  EXPECT_THAT(mechanism.not_exercised,
              ElementsAre("backend sqlite: every test was skipped (1 skipped: lacks hooks)"));
  EXPECT_TRUE(mechanism.not_claimed.empty());

  // A run that exercised nothing of what the candidate claims is still not a
  // pass: every test not claimed, or only the catalog's checks beside them.
  EXPECT_THAT(what_was_exercised({skipped_for("Scope.B", nullptr, "scope")},
                                 rules_of_a_segment_store())
                  .not_exercised,
              ElementsAre("no test ran: every one of the 1 selected was skipped"));
  EXPECT_THAT(what_was_exercised({test_ended("Catalog.C", nullptr, kRan),
                                  skipped_for("Scope.B", nullptr, "scope")},
                                 rules_of_a_segment_store())
                  .not_exercised,
              ElementsAre("no test of an area the candidate declares was selected: every test "
                          "that asks the candidate was not claimed, 1 (scope 1)"));
}

TEST(Exercised, HARNESS_58_EachPartStatesItsMustReach) {
  record_spec("Harness", "HARNESS-58");
  TestRecord must_ran = test_ended("Segments.A", "sqlite", kRan);
  TestRecord must_skipped = skipped_for("Segments.B", "sqlite", "hooks");
  TestRecord should_ran = test_ended("Segments.C", "sqlite", kRan);
  should_ran.level = RequirementLevel::should;
  TestRecord must_not_claimed = skipped_for("Download.D", "sqlite", "download");
  TestRecord unreachable = test_ended("Segments.A", "postgres", kSkipped, true, "no server");
  ExerciseRules rules = rules_of_a_segment_store();
  rules.unreachable_backends = {{"postgres", "no server"}};
  const auto run = what_was_exercised(
      {must_ran, must_skipped, should_ran, must_not_claimed, unreachable}, rules);
  ASSERT_EQ(run.parts.size(), 2u);  // postgres, then sqlite
  EXPECT_EQ(run.parts[1].must_ran, 1);
  EXPECT_EQ(run.parts[1].must_owed, 2);  // the SHOULD test and the one not claimed owe nothing
  const std::string text = format_exercised(run);
  EXPECT_THAT(text, HasSubstr("sqlite 2 ran, 1 skipped, MUST reach 1/2"));
  // A backend the run could not reach states no reach: it owed nothing there.
  EXPECT_THAT(text, HasSubstr("postgres 0 ran, 1 skipped \u00b7"));
}

}  // namespace
}  // namespace ssp::harness
