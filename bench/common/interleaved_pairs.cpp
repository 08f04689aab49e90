#include "interleaved_pairs.hpp"

#include <chrono>

namespace ssp::bench {

void run_interleaved_pairs(benchmark::State& state, const PairStep& first,
                           const PairStep& second) {
  using Clock = std::chrono::steady_clock;
  Clock::duration first_time{}, second_time{};
  const auto timed = [](const PairStep& step, Clock::duration& spent) {
    const Clock::time_point start = Clock::now();
    const bool done = step.run();
    spent += Clock::now() - start;
    return done;
  };
  bool first_ahead = true;
  for (auto _ : state) {
    const bool done = first_ahead
                          ? timed(first, first_time) && timed(second, second_time)
                          : timed(second, second_time) && timed(first, first_time);
    if (!done) break;
    first_ahead = !first_ahead;
  }
  state.SetItemsProcessed(2 * state.iterations());
  const auto rate = [&state](Clock::duration spent) {
    const double seconds = std::chrono::duration<double>(spent).count();
    return seconds > 0 ? static_cast<double>(state.iterations()) / seconds : 0.0;
  };
  state.counters[first.name + "_commits_per_second"] = rate(first_time);
  state.counters[second.name + "_commits_per_second"] = rate(second_time);
  if (first_time.count() > 0) {
    state.counters[first.name + "_over_" + second.name] =
        std::chrono::duration<double>(second_time) / std::chrono::duration<double>(first_time);
  }
}

}  // namespace ssp::bench
