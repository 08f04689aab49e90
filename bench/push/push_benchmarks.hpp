// The push benchmarks: commits applied per second through the reference push
// pipeline (run_push), and their two floors: the same rows written in one
// plain transaction per commit into one table (push_floor), and every row a
// push leaves (push_rows_floor). Each reports items/s = commits/s, a rows_per_second
// counter (commits/s × operations) and a checksum counter: the XOR of
// row_checksum_bits over the rows it wrote, summed over threads. A push
// benchmark and its floor write the same rows in the same order, so with equal
// iteration counts their checksums are equal.
#pragma once

#include <benchmark/benchmark.h>

#include "common/bench_config.hpp"
#include "common/run_shared.hpp"
#include "push_site.hpp"
#include "segments/bench_site.hpp"

namespace ssp::bench {

using SharedPushSite = RunShared<PushSite>;

// One commit of `operations` new-row upserts per iteration through run_push,
// each thread on its own ServerStorage, pushing to partition
// push_partition(thread, partitions), on a fresh site per run. Stops with an
// error unless every commit answers applied with a commit seq above the
// thread's previous one and one applied record per operation.
void bench_push(benchmark::State& state, SharedPushSite& sites, BenchBackend backend,
                int operations, int partitions, const BenchConfig& config);

// The growth target: pushes into a partition that already holds `population`
// rows against the same pushes into an empty one, on one thread, in
// interleaved pairs (interleaved_pairs.hpp; counters grown_commits_per_second,
// empty_commits_per_second, grown_over_empty). Two fresh sites per run: the
// grown one filled first (500 operations a commit, from a stream no benchmark
// thread uses), then the empty one. Each iteration pushes bench_push's next
// commit (thread 0, one partition) to both. The grown site is filled once per
// run, so a run has a fixed iteration count. Stops with an error unless every
// commit is applied (bench_push's checks).
void bench_push_growth(benchmark::State& state, BenchBackend backend, int operations,
                       std::int64_t population, const BenchConfig& config);

// The rows-floor target measured in interleaved pairs (interleaved_pairs.hpp;
// counters push_commits_per_second, floor_commits_per_second,
// push_over_floor): each iteration pushes bench_push's next commit (thread
// 0, one partition) and writes the same commit through the rows floor, on one
// fresh site per run, for a fixed number of pairs. Stops with an error unless
// every push is applied.
void bench_push_paired(benchmark::State& state, BenchBackend backend, int operations,
                       const BenchConfig& config);

// The same commits' rows through PushFloorDatabase::insert_rows (one
// transaction per commit), each thread on its own floor connection.
void bench_push_floor(benchmark::State& state, SharedPushSite& sites, BenchBackend backend,
                      int operations, const BenchConfig& config);

// The same commits through PushRowsFloor::write_commit: every row an applied
// push leaves, each thread on its own connection and its own partition
// (push_partition(thread, threads)), on a fresh site per run.
void bench_push_rows_floor(benchmark::State& state, SharedPushSite& sites, BenchBackend backend,
                           int operations, const BenchConfig& config);

// How many client/server round trips one PostgreSQL push of `operations`
// makes (counter round_trips_per_push), counted by a relay between the
// storage's connections and the server, after one warm-up push that prepares
// the pooled connection's statements. The relay slows every exchange, so only
// the counter means something. Every push must be applied.
void bench_push_round_trips(benchmark::State& state, int operations, const BenchConfig& config);

}  // namespace ssp::bench
