#include <algorithm>
#include <chrono>

#include "bench_loops.hpp"
#include "benchmarks.hpp"

namespace ssp::bench {
namespace {

// First puts of the merge benchmark are made this many at a time, untimed.
constexpr std::uint64_t kMergeBatch = 32;

}  // namespace

std::shared_ptr<BenchSite> join_site(benchmark::State& state, SharedSite& sites,
                                     BenchBackend backend, const BenchConfig& config) {
  return sites.join(state.threads(), [&] { return make_bench_site(backend, config); });
}

void bench_put_new(benchmark::State& state, SharedSite& sites, BenchBackend backend,
                   std::size_t size, const BenchConfig& config) {
  const auto site = join_site(state, sites, backend, config);
  const auto store = site->open_store();
  put_each_new_payload(state, size, config,
                       [&](std::span<const std::uint8_t> bytes, std::uint64_t index) {
                         return store
                             ->put(bench_metadata(scope_digest_for("new", index)), bytes,
                                   kBenchNowMs)
                             .segment_id;
                       });
}

void bench_put_merge(benchmark::State& state, SharedSite& sites, BenchBackend backend,
                     std::size_t size, const BenchConfig& config) {
  const auto site = join_site(state, sites, backend, config);
  const auto store = site->open_store();
  ThreadPayloads payloads(state, StampRole::merge, size, config);
  std::uint64_t checksum = 0;
  std::uint64_t next = 0;      // next segment to merge into
  std::uint64_t prepared = 0;  // segments put once so far
  for (auto _ : state) {
    if (next == prepared) {
      const auto left = static_cast<std::uint64_t>(state.max_iterations - state.iterations());
      for (const std::uint64_t end = prepared + std::clamp<std::uint64_t>(left, 1, kMergeBatch);
           prepared < end; ++prepared) {
        store->put(bench_metadata(scope_digest_for("first", prepared)), payloads.bytes(prepared),
                   kBenchNowMs);
      }
    }
    const auto bytes = payloads.bytes(next);
    const auto start = std::chrono::steady_clock::now();
    const SegmentRecord record =
        store->put(bench_metadata(scope_digest_for("second", next)), bytes, kBenchNowMs);
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (record.publications.size() != 2) {
      state.SkipWithError("merge put did not add a second publication");
      break;
    }
    checksum ^= checksum_bits(record.segment_id);
    ++next;
  }
  report_work(state, state.iterations(), state.iterations() * static_cast<std::int64_t>(size),
              checksum);
}

void bench_put_repeat(benchmark::State& state, SharedSite& sites, BenchBackend backend,
                      std::size_t size, const BenchConfig& config) {
  const auto site = join_site(state, sites, backend, config);
  const auto store = site->open_store();
  ThreadPayloads payloads(state, StampRole::repeat, size, config);
  for (std::uint64_t i = 0; i < kRepeatPool; ++i) {
    store->put(bench_metadata(scope_digest_for("repeat", i)), payloads.bytes(i), kBenchNowMs);
  }
  std::uint64_t checksum = 0;
  std::uint64_t index = 0;
  for (auto _ : state) {
    const std::uint64_t i = index % kRepeatPool;
    const SegmentRecord record =
        store->put(bench_metadata(scope_digest_for("repeat", i)), payloads.bytes(i),
                   kBenchNowMs + 1 + static_cast<std::int64_t>(index));
    if (record.publications.size() != 1) {
      state.SkipWithError("repeated put did not refresh its publication in place");
      break;
    }
    checksum ^= checksum_bits(record.segment_id);
    ++index;
  }
  report_work(state, state.iterations(), state.iterations() * static_cast<std::int64_t>(size),
              checksum);
}

void bench_get(benchmark::State& state, BenchBackend backend, std::size_t size,
               std::int64_t count, const BenchConfig& config) {
  const Population& stored = population(backend, count, config);
  read_each_random_segment(state, stored, size, config, [&](const std::string& id) {
    const std::optional<StoredSegment> segment = stored.store->get(id);
    return segment && segment->record.segment_id == id ? segment->bytes.size() : 0;
  });
}

void bench_find(benchmark::State& state, BenchBackend backend, std::int64_t count,
                const BenchConfig& config) {
  const Population& stored = population(backend, count, config);
  Mulberry32 pick(config.seed);
  std::uint64_t checksum = 0;
  std::int64_t bytes = 0;
  for (auto _ : state) {
    const std::size_t j = pick.below(stored.ids.size());
    const std::optional<SegmentRecord> found =
        stored.store->find(bench_find_key(population_digest(j)), kBenchNowMs);
    if (!found || found->segment_id != stored.ids[j]) {
      state.SkipWithError(("find missed " + stored.ids[j]).c_str());
      break;
    }
    checksum ^= checksum_bits(found->segment_id);
    bytes += found->byte_length;
  }
  report_work(state, state.iterations(), bytes, checksum);
}

void bench_stats(benchmark::State& state, BenchBackend backend, std::int64_t count,
                 const BenchConfig& config) {
  const Population& stored = population(backend, count, config);
  std::uint64_t checksum = 0;
  std::int64_t bytes = 0;
  for (auto _ : state) {
    const SegmentStoreStats stats = stored.store->stats();
    if (stats.count != count) {
      state.SkipWithError("stats did not count the population");
      break;
    }
    checksum += static_cast<std::uint64_t>(stats.count);
    bytes += stats.bytes;
  }
  report_work(state, state.iterations(), bytes, checksum);
}

}  // namespace ssp::bench
