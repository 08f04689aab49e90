// The start of every fault test's sweep, written once: the points of a clean
// run that the plan faults (at the sweep SSP_FAULT_SWEEP asks for), the report
// properties that name them and every pattern of the plan no clean run
// reached, and the record the test fills in with what each fault left
// (faults_doc.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/candidate/backend.hpp"
#include "harness/faults/fault_plan.hpp"
#include "harness/faults/faults_doc.hpp"

namespace ssp::harness {

struct FaultSweepStart {
  std::vector<std::string> points;  // to fault, in the clean run's order
  std::optional<std::string> skip;  // why nothing is faulted: the clean run passed no plan point
  FaultSweepRecord record;          // of this plan and backend; its points are the test's to add
};

// Chooses the points of `reached` (those a clean `call`, e.g. "push" or
// "put", passed) and records the test's properties fault_points and
// unreached_<pattern>. Call from a running test.
FaultSweepStart start_fault_sweep(const FaultPlan& plan, Backend backend,
                                  const std::vector<std::string>& reached, std::string_view call);

}  // namespace ssp::harness
