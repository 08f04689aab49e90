// docs/faults.md, written from a run: every fault plan as written, how the
// faults are played and read, and per plan and backend what the run saw at
// each point it faulted. The fault tests record each finished sweep here;
// with SSP_FAULTS_DOC=check:PATH the run fails when PATH differs from what it
// saw, and with write:PATH it writes PATH (scripts/faults-doc).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/candidate/backend.hpp"
#include "harness/faults/fault_plan.hpp"
#include "harness/util/run_log.hpp"

namespace ssp::harness {

// What one faulted point left, and what the same push answered after.
struct FaultPointOutcome {
  std::string point;
  bool committed = false;  // the database held the push's commit (its stored rejection, the put)
  std::string retry;       // "applied", "cached", "rejected"; a put's "published"
};

// One plan swept through on one backend, every chosen point passing.
struct FaultSweepRecord {
  std::string plan;  // FaultPlan::name
  Backend backend = Backend::sqlite;
  FaultSweep sweep = FaultSweep::full;
  std::vector<FaultPointOutcome> points;
};

// The sweeps of this run.
using FaultSweeps = RunLog<FaultSweepRecord>;

// The page for `plans` and the sweeps recorded for them. Throws
// std::runtime_error naming each plan and backend with no full sweep (a cut
// runs on PostgreSQL only): the page shows a whole, passing, full run or
// nothing.
std::string render_faults_doc(const std::vector<FaultPlan>& plans,
                              const std::vector<FaultSweepRecord>& sweeps);

// What SSP_FAULTS_DOC asks, done with this run's sweeps (generated_page.hpp).
std::optional<std::string> settle_faults_doc(const std::vector<FaultPlan>& plans);

}  // namespace ssp::harness
