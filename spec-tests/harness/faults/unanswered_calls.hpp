// The faulted calls of this run that never answered. A cut plan's test
// records each one and goes on to judge what the fault left, as after any
// other cut: its row rests on atomicity and idempotency, which say what a
// fault may leave, not that the call ends. FAULT-13 judges the silences
// themselves, at the level of its own source (docs/requirements/faults.md).
// It runs after the sweeps of its suite and reads these logs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/candidate/backend.hpp"
#include "harness/util/run_log.hpp"

namespace ssp::harness {

// A cut sweep that started: FAULT-13 has something to judge on its backend.
struct CutSweepStarted {
  std::string plan_file;  // "cut_applied_push.plan"
  Backend backend = Backend::postgres;
};
using CutSweepsStarted = RunLog<CutSweepStarted>;

// A call that stayed silent after its connection was cut: its driver said
// nothing past SSP_DRIVER_TIMEOUT_MS and was killed.
struct UnansweredCall {
  std::string plan_file;
  Backend backend = Backend::postgres;
  std::string point;  // "round-trip#3/before-request"
  // The last statement the cut connection sent, the driver's deadline and
  // the tail of its stderr.
  std::string why;
};
using UnansweredCalls = RunLog<UnansweredCall>;

// FAULT-13's verdict on `backend` over the sweeps of `plan_files` this run
// started (`played_by` names the tests that play them, for the skip): a
// skip when none started, a failure naming each call of them that never
// answered (plan, point, the last statement the cut connection sent, why),
// neither for a pass.
struct SilenceVerdict {
  std::optional<std::string> skip;
  std::optional<std::string> failure;
};
SilenceVerdict judge_silences(const std::vector<std::string>& plan_files, Backend backend,
                              const std::string& played_by);

}  // namespace ssp::harness
