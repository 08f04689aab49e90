// Two steps measured against each other in one benchmark loop (issue 22).
// Each iteration runs both, in alternating order, each step timed on its own,
// so that the slow seconds of a noisy machine fall on both alike. Measured as
// two benchmarks minutes apart, the push growth ratio scattered from 61% to
// 139% between runs; measured in pairs, its spread over three repetitions is
// about 0.5%.
#pragma once

#include <benchmark/benchmark.h>

#include <functional>
#include <string>
#include <string_view>

namespace ssp::bench {

struct PairStep {
  std::string name;  // its counters' prefix
  // One step: one commit. False once it stopped the benchmark with an error
  // (State::SkipWithError).
  std::function<bool()> run;
  // When set, run untimed right before each `run` (a merge put's first put,
  // say), with the same contract.
  std::function<bool()> prepare = {};
};

// Runs `first` and `second` once per iteration, `first` ahead on even
// iterations and `second` ahead on odd ones, until the state stops or a step
// fails. Reports, for each step, <name>_<unit>_per_second (iterations ÷ the
// wall time spent in its runs) and <name>_cpu_us (the CPU time, user and
// system, of this thread in its runs, in µs per run: a PostgreSQL server's
// work is not in it), and <first>_over_<second>, the ratio of the two rates;
// items/s counts both steps. `unit` names what one step does
// ("commits", "puts", "gets").
void run_interleaved_pairs(benchmark::State& state, const PairStep& first,
                           const PairStep& second, std::string_view unit = "commits");

}  // namespace ssp::bench
