#include "harness/faults/fault_sweep.hpp"

#include <gtest/gtest.h>

#include "harness/util/keyword_lines.hpp"

namespace ssp::harness {

FaultSweepStart start_fault_sweep(const FaultPlan& plan, Backend backend,
                                  const std::vector<std::string>& reached, std::string_view call) {
  const FaultSweep sweep = fault_sweep_of_environment();
  FaultPoints points = choose_fault_points(plan, reached, sweep);
  for (const std::string& pattern : points.unmatched_patterns) {
    // A callback the candidate does not make (hook points it does not
    // declare): the point cannot be reached, which the report says.
    ::testing::Test::RecordProperty("unreached_" + pattern,
                                    "a clean " + std::string(call) + " passed no point " + pattern);
  }
  FaultSweepStart start{std::move(points.chosen), std::nullopt, {plan.name, backend, sweep, {}}};
  if (start.points.empty()) {
    start.skip = plan.file + ": a clean " + std::string(call) +
                 " passed none of the plan's points (" + join_words(reached) + ")";
  } else {
    ::testing::Test::RecordProperty("fault_points", join_words(start.points));
  }
  return start;
}

}  // namespace ssp::harness
