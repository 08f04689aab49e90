// The benchmark bodies. Each reports items/s and bytes/s (see report_work) and
// a checksum proving the work happened: the XOR of checksum_bits over the
// segment ids it saw, summed over threads (stats: the sum of the counts it
// got). A store benchmark and its floor see the same ids in the same order,
// so equal iteration counts give equal checksums.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bench_site.hpp"
#include "common/bench_config.hpp"
#include "common/run_shared.hpp"

namespace ssp::bench {

using SharedSite = RunShared<BenchSite>;

// Segments a repeat put cycles over, all put before timing starts.
inline constexpr std::uint64_t kRepeatPool = 64;

// This run's site (a fresh one made by the first thread to arrive).
std::shared_ptr<BenchSite> join_site(benchmark::State& state, SharedSite& sites,
                                     BenchBackend backend, const BenchConfig& config);

// Puts, on a fresh site per run; every thread opens its own store.
// put of new bytes (a new segment id each iteration).
void bench_put_new(benchmark::State& state, SharedSite& sites, BenchBackend backend,
                   std::size_t size, const BenchConfig& config);
// put of bytes already stored under another scope digest: the 0.22 merge path
// (a second publication). The first put of each segment is made in untimed
// batches; only the merging put is timed (manual time).
void bench_put_merge(benchmark::State& state, SharedSite& sites, BenchBackend backend,
                     std::size_t size, const BenchConfig& config);
// put of bytes already stored under the same context: the publication is
// refreshed in place. Cycles over kRepeatPool segments.
void bench_put_repeat(benchmark::State& state, SharedSite& sites, BenchBackend backend,
                      std::size_t size, const BenchConfig& config);

// put of one segment's bytes under a new scope digest, to a segment that
// holds `publications` publications and keeps holding that many (each put
// prunes the oldest); single-threaded. Untimed after the loop, SQL backends
// add a WAL counter: wal_frames_per_put (SQLite) or wal_bytes_per_put
// (PostgreSQL), averaged over a few more puts (BenchSite::wal_written); and
// every backend get_share: the time of a get of the segment (the whole
// record, as a put reads it) over the mean time of a timed put.
void bench_put_growth(benchmark::State& state, BenchBackend backend, std::int64_t publications,
                      std::size_t size, const BenchConfig& config);

// The puts whose round trips bench_put_round_trips counts.
enum class RoundTripPut { put_new, put_merge, put_repeat };
std::string_view round_trip_put_name(RoundTripPut put);

// PostgreSQL only: the put of bench_put_new, bench_put_merge or
// bench_put_repeat (single-threaded, fresh site per run) on a store whose
// connection goes through a harness::PostgresRelay. Counter
// round_trips_per_put: the round trips counted around each measured put,
// over the puts (a merge's first put is not counted), after one untimed put
// of the same kind has prepared the store's statements. The rate is not a
// measure: the relay slows every exchange.
void bench_put_round_trips(benchmark::State& state, RoundTripPut put, std::size_t size,
                           const BenchConfig& config);

// Reads against a population (population.hpp), single-threaded.
// get of a random segment of `size` bytes.
void bench_get(benchmark::State& state, BenchBackend backend, std::size_t size,
               std::int64_t count, const BenchConfig& config);
// find of a random segment's key (always a hit).
void bench_find(benchmark::State& state, BenchBackend backend, std::int64_t count,
                const BenchConfig& config);
// stats over the whole population.
void bench_stats(benchmark::State& state, BenchBackend backend, std::int64_t count,
                 const BenchConfig& config);

// The store against its rows floor (segment_rows_floor.hpp) in interleaved
// pairs (common/interleaved_pairs.hpp), single-threaded; counters
// store_<unit>_per_second, floor_<unit>_per_second and store_over_floor.
// put_new: the same new bytes put through both, on a fresh site per run.
void bench_put_new_paired(benchmark::State& state, BenchBackend backend, std::size_t size,
                          const BenchConfig& config);
// put_merge: the same bytes put a second time under a new digest through
// both (the first put untimed), on a fresh site per run.
void bench_put_merge_paired(benchmark::State& state, BenchBackend backend, std::size_t size,
                            const BenchConfig& config);
// get: the same random segments of a population read through the store and
// through the rows floor on the store's own database.
void bench_get_paired(benchmark::State& state, BenchBackend backend, std::size_t size,
                      std::int64_t count, const BenchConfig& config);

// Floors, on the same payloads.
// OpenSSL SHA-256 of the bytes put_new puts.
void bench_floor_sha256(benchmark::State& state, std::size_t size, const BenchConfig& config);
// FloorDatabase::insert of the bytes put_new puts (hash + one INSERT).
void bench_floor_insert(benchmark::State& state, SharedSite& sites, BenchBackend backend,
                        std::size_t size, const BenchConfig& config);
// FloorDatabase::select of the segments get reads, in the same order.
void bench_floor_select(benchmark::State& state, BenchBackend backend, std::size_t size,
                        std::int64_t count, const BenchConfig& config);

}  // namespace ssp::bench
