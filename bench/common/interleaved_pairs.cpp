#include "interleaved_pairs.hpp"

#include <time.h>

#include <chrono>

namespace ssp::bench {
namespace {

using WallClock = std::chrono::steady_clock;

// The CPU time this thread has used: user and system, so a step's own
// SQLite work and its system calls count, and a PostgreSQL server's does not.
std::chrono::nanoseconds thread_cpu_time() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}

// What one side of the pairs spent in its runs.
struct Spent {
  WallClock::duration wall{};
  std::chrono::nanoseconds cpu{};
};

bool timed(const PairStep& step, Spent& spent) {
  if (step.prepare && !step.prepare()) return false;
  const WallClock::time_point start = WallClock::now();
  const std::chrono::nanoseconds cpu_start = thread_cpu_time();
  const bool done = step.run();
  spent.cpu += thread_cpu_time() - cpu_start;
  spent.wall += WallClock::now() - start;
  return done;
}

}  // namespace

void run_interleaved_pairs(benchmark::State& state, const PairStep& first, const PairStep& second,
                           std::string_view unit) {
  Spent first_spent, second_spent;
  bool first_ahead = true;
  for (auto _ : state) {
    const bool done = first_ahead ? timed(first, first_spent) && timed(second, second_spent)
                                  : timed(second, second_spent) && timed(first, first_spent);
    if (!done) break;
    first_ahead = !first_ahead;
  }
  state.SetItemsProcessed(2 * state.iterations());
  const auto iterations = static_cast<double>(state.iterations());
  const auto report = [&](const PairStep& step, const Spent& spent) {
    const double seconds = std::chrono::duration<double>(spent.wall).count();
    state.counters[step.name + "_" + std::string(unit) + "_per_second"] =
        seconds > 0 ? iterations / seconds : 0.0;
    if (iterations > 0) {
      state.counters[step.name + "_cpu_us"] =
          std::chrono::duration<double, std::micro>(spent.cpu).count() / iterations;
    }
  };
  report(first, first_spent);
  report(second, second_spent);
  if (first_spent.wall.count() > 0) {
    state.counters[first.name + "_over_" + second.name] =
        std::chrono::duration<double>(second_spent.wall) /
        std::chrono::duration<double>(first_spent.wall);
  }
}

}  // namespace ssp::bench
