#include "harness/faults/unanswered_calls.hpp"

#include <algorithm>

namespace ssp::harness {
namespace {

bool one_of(const std::vector<std::string>& plan_files, const std::string& plan_file) {
  return std::find(plan_files.begin(), plan_files.end(), plan_file) != plan_files.end();
}

}  // namespace

SilenceVerdict judge_silences(const std::vector<std::string>& plan_files, Backend backend,
                              const std::string& played_by) {
  const std::vector<CutSweepStarted> sweeps = CutSweepsStarted::of_this_run().all();
  const bool started = std::any_of(sweeps.begin(), sweeps.end(), [&](const CutSweepStarted& sweep) {
    return sweep.backend == backend && one_of(plan_files, sweep.plan_file);
  });
  if (!started) {
    return {"no cut sweep it judges ran before it in this run (" + played_by +
                " play them, on PostgreSQL)",
            std::nullopt};
  }
  std::string silent;
  for (const UnansweredCall& call : UnansweredCalls::of_this_run().all()) {
    if (call.backend != backend || !one_of(plan_files, call.plan_file)) continue;
    silent += call.plan_file + ": cut at " + call.point + ", the call never answered (" +
              call.why + ")\n";
  }
  if (silent.empty()) return {};
  return {std::nullopt, "a call whose connection was cut must answer or fail with an error; "
                        "these never answered:\n" + silent};
}

}  // namespace ssp::harness
