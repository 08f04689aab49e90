#include "registration.hpp"

#include <functional>
#include <memory>
#include <string>

#include "driver/driver_push_pairs.hpp"
#include "push/push_benchmarks.hpp"
#include "segments/benchmarks.hpp"

namespace ssp::bench {
namespace {

using Body = std::function<void(benchmark::State&)>;

enum class Clock { real, manual };

// A failure inside a body (a StorageError, say) marks that benchmark as
// errored in the output instead of ending the whole run.
benchmark::internal::Benchmark* add(const std::string& name, Body body, Clock clock,
                                    const BenchConfig& config) {
  auto* registered = benchmark::RegisterBenchmark(name.c_str(), [body](benchmark::State& state) {
    try {
      body(state);
    } catch (const std::exception& error) {
      state.SkipWithError(error.what());
    }
  });
  if (clock == Clock::manual) {
    registered->UseManualTime();
  } else {
    registered->UseRealTime();
  }
  if (config.fixed_iterations) registered->Iterations(*config.fixed_iterations);
  return registered;
}

void with_put_threads(benchmark::internal::Benchmark* registered, const BenchConfig& config) {
  for (const int threads : config.put_threads) registered->Threads(threads);
}

using PutBody = void (*)(benchmark::State&, SharedSite&, BenchBackend, std::size_t,
                         const BenchConfig&);

void add_put(const std::string& name, PutBody body, Clock clock, BenchBackend backend,
             std::size_t size, const BenchConfig& config) {
  auto sites = std::make_shared<SharedSite>();
  with_put_threads(add(
                       name,
                       [=, &config](benchmark::State& state) {
                         body(state, *sites, backend, size, config);
                       },
                       clock, config),
                   config);
}

// Pairs a store-against-rows-floor run makes (the smoke pass: its fixed
// few): a fixed count, as push_paired, so that every repetition weighs the
// same stretch of a noisy machine.
constexpr benchmark::IterationCount kRowsFloorPairs = 2000;

// The payload sizes the rows-floor targets name (1 KiB and 64 KiB).
constexpr std::size_t kLargestPairedSize = 64 * 1024;

void register_put_pairs(BenchBackend backend, std::size_t size, const BenchConfig& config) {
  const std::string prefix(backend_name(backend));
  const std::string suffix = "/size:" + size_label(size);
  add(prefix + "/put_new_paired" + suffix,
      [=, &config](benchmark::State& state) { bench_put_new_paired(state, backend, size, config); },
      Clock::real, config)
      ->Iterations(config.fixed_iterations.value_or(kRowsFloorPairs));
  add(prefix + "/put_merge_paired" + suffix,
      [=, &config](benchmark::State& state) {
        bench_put_merge_paired(state, backend, size, config);
      },
      Clock::real, config)
      ->Iterations(config.fixed_iterations.value_or(kRowsFloorPairs));
}

void register_puts(BenchBackend backend, const BenchConfig& config) {
  const std::string prefix(backend_name(backend));
  for (const std::size_t size : config.payload_sizes) {
    const std::string suffix = "/size:" + size_label(size);
    add_put(prefix + "/put_new" + suffix, bench_put_new, Clock::real, backend, size, config);
    if (backend == BenchBackend::memory) {
      with_put_threads(
          add("floor/sha256" + suffix,
              [size, &config](benchmark::State& state) { bench_floor_sha256(state, size, config); },
              Clock::real, config),
          config);
    } else {
      add_put(prefix + "/floor_insert" + suffix, bench_floor_insert, Clock::real, backend, size,
              config);
    }
    add_put(prefix + "/put_merge" + suffix, bench_put_merge, Clock::manual, backend, size, config);
    add_put(prefix + "/put_repeat" + suffix, bench_put_repeat, Clock::real, backend, size, config);
    if (backend != BenchBackend::memory && size <= kLargestPairedSize) {
      register_put_pairs(backend, size, config);
    }
  }
  // Both counts back to back: their ratio is the target.
  for (const std::int64_t publications : config.growth_publications) {
    const std::size_t size = config.growth_size;
    add(prefix + "/put_growth/size:" + size_label(size) +
            "/publications:" + std::to_string(publications),
        [=, &config](benchmark::State& state) {
          bench_put_growth(state, backend, publications, size, config);
        },
        Clock::real, config);
  }
}

// The relay's count is exact after a few puts: a fixed iteration count, not
// a minimum time.
constexpr std::int64_t kRoundTripPuts = 32;

void register_push_round_trips(const BenchConfig& config) {
  for (const int operations : config.push_operations) {
    add(
        "postgres/round_trips_push/ops:" + std::to_string(operations),
        [=, &config](benchmark::State& state) {
          bench_push_round_trips(state, operations, config);
        },
        Clock::real, config)
        ->Iterations(config.fixed_iterations.value_or(kRoundTripPuts));
  }
}

void register_round_trips(const BenchConfig& config) {
  const std::size_t size = 1024;
  for (const RoundTripPut put :
       {RoundTripPut::put_new, RoundTripPut::put_merge, RoundTripPut::put_repeat}) {
    add("postgres/round_trips_" + std::string(round_trip_put_name(put)) + "/size:" +
            size_label(size),
        [=, &config](benchmark::State& state) { bench_put_round_trips(state, put, size, config); },
        Clock::real, config)
        ->Iterations(config.fixed_iterations.value_or(kRoundTripPuts));
  }
}

void register_reads(BenchBackend backend, const BenchConfig& config) {
  const std::string prefix(backend_name(backend));
  for (const std::int64_t count : config.populations) {
    const std::string population = "/population:" + std::to_string(count);
    for (const std::size_t size : config.payload_sizes) {
      const std::string suffix = "/size:" + size_label(size) + population;
      add(prefix + "/get" + suffix,
          [=, &config](benchmark::State& state) { bench_get(state, backend, size, count, config); },
          Clock::real, config);
      if (backend != BenchBackend::memory) {
        add(prefix + "/floor_select" + suffix,
            [=, &config](benchmark::State& state) {
              bench_floor_select(state, backend, size, count, config);
            },
            Clock::real, config);
        if (size <= kLargestPairedSize) {
          add(prefix + "/get_paired" + suffix,
              [=, &config](benchmark::State& state) {
                bench_get_paired(state, backend, size, count, config);
              },
              Clock::real, config)
              ->Iterations(config.fixed_iterations.value_or(kRowsFloorPairs));
        }
      }
    }
  }
  // find and stats at every population back to back (the populations are
  // built by then), so that the comparison across populations is not a
  // comparison across minutes of a noisy machine.
  for (const std::int64_t count : config.populations) {
    add(prefix + "/find/population:" + std::to_string(count),
        [=, &config](benchmark::State& state) { bench_find(state, backend, count, config); },
        Clock::real, config);
  }
  for (const std::int64_t count : config.populations) {
    add(prefix + "/stats/population:" + std::to_string(count),
        [=, &config](benchmark::State& state) { bench_stats(state, backend, count, config); },
        Clock::real, config);
  }
}

// Pairs a push_growth run pushes: its grown site is filled once per run, so
// the run cannot grow its iteration count to a minimum time.
constexpr benchmark::IterationCount kGrowthPairs = 1000;

// Pairs a push_paired run pushes: with Google Benchmark's own minimum time a
// PostgreSQL run made about 200 pairs, and its ratio moved from 49% to 80%
// between repetitions; over 1,500 pairs it stays within 2 points.
constexpr benchmark::IterationCount kPushFloorPairs = 1500;

// Per operation count: the two floors at every thread count, then the pushes on
// each partition count with the thread counts at least as large (fewer
// threads than partitions would leave partitions idle: the same run as fewer
// partitions), then the push and its rows floor in pairs, and the growth pairs.
void register_pushes(BenchBackend backend, const BenchConfig& config) {
  const std::string prefix(backend_name(backend));
  for (const int operations : config.push_operations) {
    const std::string suffix = "/ops:" + std::to_string(operations);
    auto floor_sites = std::make_shared<SharedPushSite>();
    auto* floor = add(
        prefix + "/push_floor" + suffix,
        [=, &config](benchmark::State& state) {
          bench_push_floor(state, *floor_sites, backend, operations, config);
        },
        Clock::real, config);
    for (const int threads : config.push_threads) floor->Threads(threads);
    auto rows_floor_sites = std::make_shared<SharedPushSite>();
    auto* rows_floor = add(
        prefix + "/push_rows_floor" + suffix,
        [=, &config](benchmark::State& state) {
          bench_push_rows_floor(state, *rows_floor_sites, backend, operations, config);
        },
        Clock::real, config);
    for (const int threads : config.push_threads) rows_floor->Threads(threads);
    for (const int partitions : config.push_partitions) {
      auto sites = std::make_shared<SharedPushSite>();
      auto* pushes = add(
          prefix + "/push" + suffix + "/partitions:" + std::to_string(partitions),
          [=, &config](benchmark::State& state) {
            bench_push(state, *sites, backend, operations, partitions, config);
          },
          Clock::real, config);
      for (const int threads : config.push_threads) {
        if (threads >= partitions) pushes->Threads(threads);
      }
    }
    add(
        prefix + "/push_paired" + suffix,
        [=, &config](benchmark::State& state) {
          bench_push_paired(state, backend, operations, config);
        },
        Clock::real, config)
        ->Iterations(config.fixed_iterations.value_or(kPushFloorPairs));
    add(
        prefix + "/push_driver_paired" + suffix,
        [=, &config](benchmark::State& state) {
          bench_driver_push_pairs(state, backend, operations, config);
        },
        Clock::real, config)
        ->Iterations(config.fixed_iterations.value_or(kPushFloorPairs));
    add(
        prefix + "/push_growth" + suffix + "/population:" + std::to_string(config.push_population),
        [=, &config](benchmark::State& state) {
          bench_push_growth(state, backend, operations, config.push_population, config);
        },
        Clock::real, config)
        ->Iterations(config.fixed_iterations.value_or(kGrowthPairs));
  }
}

}  // namespace

void register_benchmarks(const BenchConfig& config) {
  std::vector<BenchBackend> backends = {BenchBackend::memory, BenchBackend::sqlite};
  if (config.pg_dsn) backends.push_back(BenchBackend::postgres);
  for (const BenchBackend backend : backends) {
    register_puts(backend, config);
    if (backend == BenchBackend::postgres) {
      register_round_trips(config);
      register_push_round_trips(config);
    }
    register_reads(backend, config);
    if (backend != BenchBackend::memory) register_pushes(backend, config);
  }
}

}  // namespace ssp::bench
