// The tests made from fault plans (docs/faults.md), registered as the race
// schedules are (data/deferred_registration.hpp): each plan whose call an
// engine plays becomes the test "<suite>.<FAULT_N>_<test>/<backend>" on
// SQLite and PostgreSQL, so that a new plan file is a new test with no code.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "harness/candidate/backend.hpp"
#include "harness/candidate/candidate.hpp"
#include "harness/catalog/spec.hpp"
#include "harness/faults/fault_plan.hpp"
#include "harness/gates/capability_gate.hpp"

namespace ssp::harness {

// What a plan's test needs before it plays, in this order: commands for a
// command.run, process_kill for a kill.
std::vector<Capability> capabilities_needed(const FaultPlan& plan);

// Makes the test of `plan` on `backend`.
using FaultPlanTestMaker = std::function<::testing::Test*(const FaultPlan& plan, Backend backend)>;

// A test that judges what the plans' sweeps left (FaultSweeps, the
// unanswered calls), registered after every plan's so that they have run.
struct FaultSweepJudge {
  std::string name;  // the test's name, before "/<backend>"
  std::function<::testing::Test*(Backend backend)> make;
};

// Defers (defer_registration) the registration, in `suite`, of a test per
// plan of the project's directory whose call is among `calls` and per SQL
// backend, made by `make`, then of each judge per backend. Every test of
// `suite` must come from here: GoogleTest runs a suite's tests in the order
// they were registered, and a TEST_P would run before these. A directory
// whose plans do not load registers one failing test,
// "<suite>.FAULT_PLANS_PlanFilesLoad", saying why. Returns true, for a
// namespace-scope initializer.
bool defer_fault_plan_tests(std::string suite, std::set<std::string> calls,
                            FaultPlanTestMaker make, std::vector<FaultSweepJudge> judges = {});

// The test of one plan over an engine's fixture: records the plan's first
// section and its requirement, skips at the capability gates its plan
// needs, then plays it (Fixture::play(const FaultPlan&)).
template <class Fixture>
class FaultPlanTest final : public Fixture {
 public:
  FaultPlanTest(const FaultPlan& plan, Backend backend) : plan_(plan) { this->made_for(backend); }

  void TestBody() override {
    record_spec(plan_.sections.front(), plan_.requirement);
    for (const Capability capability : capabilities_needed(plan_)) {
      SSP_REQUIRE_CAPABILITY(this->candidate(), capability);
    }
    this->play(plan_);
  }

 private:
  const FaultPlan& plan_;  // kept by defer_fault_plan_tests for the run
};

}  // namespace ssp::harness
