// The fault plans as the harness reads them (fault_plan.hpp): a malformed
// plan is refused naming its line, every project plan parses and names a
// FAULT row of the catalog, and the points a sweep faults are chosen from a
// clean run's as the patterns say.
#include <gmock/gmock.h>

#include <algorithm>

#include "harness/catalog/catalog.hpp"
#include "harness/catalog/spec.hpp"
#include "harness/faults/fault_plan.hpp"

namespace ssp::harness {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::StartsWith;

const std::string kPlanHead =
    "plan P\nrequirement FAULT-9\nsection §6.4\ntitle t\ntest T9\n"
    "call push.run applied\nfault kill\n";

std::string plan_error_of(const std::string& text) {
  try {
    parse_fault_plan(text, "bad.plan");
  } catch (const FaultPlanSyntaxError& error) {
    return error.what();
  }
  return "";
}

TEST(FaultPlanFormat, HARNESS_56_AMalformedPlanIsRefusedNamingItsLine) {
  record_spec("Harness", "HARNESS-56");
  EXPECT_THAT(plan_error_of(kPlanHead + "points hook:*\ncheck whole-or-none sometimes\n"),
              StartsWith("bad.plan:9: unknown check \"sometimes\""));
  EXPECT_THAT(plan_error_of(kPlanHead + "fault kill\n"),
              StartsWith("bad.plan:8: a second \"fault\" line"));
  EXPECT_THAT(plan_error_of("plan P\ntest Kill-Push\n"),
              StartsWith("bad.plan:2: test name \"Kill-Push\" is not letters and digits"));
  EXPECT_THAT(plan_error_of("plan P\ncall push.run maybe\n"),
              StartsWith("bad.plan:2: expected \"call push.run applied|rejected\", \"call "
                         "command.run applied\", \"call segments.put published\" or \"call "
                         "storage.ensure migrated\""));
  EXPECT_THAT(plan_error_of(kPlanHead + "points validate_row#*\nsubset notify#1\ncheck replays\n"),
              StartsWith("bad.plan:0: subset pattern \"notify#1\" is not among the plan's points"));
  EXPECT_THAT(plan_error_of(kPlanHead + "check replays\n"), StartsWith("bad.plan:0: no \"points\" line"));
  const FaultPlan plan =
      parse_fault_plan(kPlanHead + "points validate_row#* hook:*  # a comment\n"
                                   "subset hook:before_commit\ncheck whole-or-none replays\n",
                       "good.plan");
  EXPECT_EQ(plan.name, "P");
  EXPECT_EQ(fault_plan_test_name(plan), "FAULT_9_T9");
  EXPECT_EQ(plan.clean_answer, "applied");
  EXPECT_THAT(plan.points, ElementsAre("validate_row#*", "hook:*"));
  EXPECT_THAT(plan.checks, ElementsAre(FaultCheck::whole_or_none, FaultCheck::replays));
}

// A plan's check line is data: an engine asks claims() before it plays a
// check, and refuses a plan that claims one it cannot play after its fault.
TEST(FaultPlanFormat, HARNESS_62_AnEnginePlaysTheChecksItsPlanClaimsAndRefusesOthers) {
  record_spec("Harness", "HARNESS-62");
  const FaultPlan plan = parse_fault_plan(
      kPlanHead + "points hook:*\ncheck untouched-before-commit replays\n", "claims.plan");
  EXPECT_TRUE(claims(plan, FaultCheck::untouched_before_commit));
  EXPECT_TRUE(claims(plan, FaultCheck::replays));
  EXPECT_FALSE(claims(plan, FaultCheck::whole_or_none));
  EXPECT_FALSE(claims(plan, FaultCheck::applies_once));
  EXPECT_EQ(unplayable_check(plan, {FaultCheck::untouched_before_commit, FaultCheck::replays,
                                    FaultCheck::whole_or_none}),
            std::nullopt)
      << "a plan may claim fewer checks than its engine can play";
  EXPECT_EQ(unplayable_check(plan, {FaultCheck::whole_or_none, FaultCheck::replays}),
            std::optional<std::string>(
                "claims.plan: check untouched-before-commit cannot be played after its fault "
                "(this fault's engine plays whole-or-none replays)"));
}

TEST(FaultPlanFormat, HARNESS_56_EveryPlanParsesAndNamesAFaultRow) {
  record_spec("Harness", "HARNESS-56");
  const auto catalog = load_catalog(SSP_SOURCE_DIR "/docs/requirements");
  const std::vector<FaultPlan> plans = load_fault_plans(fault_plans_directory());
  for (const FaultPlan& plan : plans) {
    EXPECT_TRUE(std::any_of(catalog.begin(), catalog.end(), [&](const CatalogEntry& row) {
      return row.id == plan.requirement && row.file.ends_with("faults.md");
    })) << plan.file << " names " << plan.requirement << ", which is no row of faults.md";
  }
  EXPECT_GE(plans.size(), 4u);
}

TEST(FaultPlanFormat, HARNESS_56_ASweepFaultsTheReachedPointsThePatternsName) {
  record_spec("Harness", "HARNESS-56");
  const FaultPlan plan = parse_fault_plan(
      kPlanHead + "points validate_row#* hook:* notify#1\nsubset validate_row#2 hook:before_commit\n"
                  "check whole-or-none\n",
      "p.plan");
  const std::vector<std::string> reached = {"hook:after_begin", "validate_row#1", "validate_row#2",
                                            "validate_commit#1", "hook:before_commit", "notify#1"};
  const FaultPoints full = choose_fault_points(plan, reached, FaultSweep::full);
  EXPECT_THAT(full.chosen, ElementsAre("hook:after_begin", "validate_row#1", "validate_row#2",
                                       "hook:before_commit", "notify#1"));
  EXPECT_THAT(full.unmatched_patterns, IsEmpty());
  EXPECT_THAT(choose_fault_points(plan, reached, FaultSweep::subset).chosen,
              ElementsAre("validate_row#2", "hook:before_commit"));
  // Without hook points, hook:* reaches nothing, which is said.
  const FaultPoints hookless =
      choose_fault_points(plan, {"validate_row#1", "notify#1"}, FaultSweep::full);
  EXPECT_THAT(hookless.chosen, ElementsAre("validate_row#1", "notify#1"));
  EXPECT_THAT(hookless.unmatched_patterns, ElementsAre("hook:*"));
  EXPECT_FALSE(point_matches("validate_row#*", "validate_commit#1"));
  EXPECT_FALSE(point_matches("validate_row#1", "validate_row#10"));
  EXPECT_TRUE(point_matches("put-hook:*", "put-hook:after_read"));
  EXPECT_FALSE(point_matches("put-hook:*", "hook:after_read"));
}

}  // namespace
}  // namespace ssp::harness
