// put_growth: the cost of a put as the publications of its segment grow. One
// segment per backend and publication count, kept for the whole process
// (building 1 000 publications per run would dwarf the run), re-put under a
// new scope digest each iteration.
//
// Why the population stays at N: put i happens at kBenchNowMs + i·step with
// step = ttl / N, so the publication of put i − N expires exactly at put i.
// Every put therefore finds N stored publications, prunes the oldest (D1, D2)
// and appends one: the steady state of a segment published under N live
// scope sets, measured the same at N = 1 and N = 1 000.
#include <chrono>
#include <map>
#include <tuple>

#include "bench_loops.hpp"
#include "benchmarks.hpp"
#include "ssp/segments/segment_store_options.hpp"

namespace ssp::bench {
namespace {

// Puts (gets) after the timed loop that the WAL counter (get_share) averages
// over.
constexpr int kSamples = 8;

struct GrowingSegment {
  std::unique_ptr<BenchSite> site;
  std::shared_ptr<SegmentStore> store;
  std::int64_t publications = 0;
  std::int64_t step_ms = 0;
  std::uint64_t next = 0;  // index of the next put
  PayloadStream payload;

  GrowingSegment(BenchBackend backend, std::int64_t count, std::size_t size,
                 const BenchConfig& config)
      : site(make_bench_site(backend, config)),
        publications(count),
        step_ms(SegmentStoreOptions{}.ttl_ms / count),
        payload(size, config.seed) {
    const std::shared_ptr<SegmentStore> loader = site->open_loading_store();
    while (next < static_cast<std::uint64_t>(count)) put(*loader);
    site->settle();
    store = site->open_store();
  }

  SegmentRecord put(SegmentStore& target) {
    const std::uint64_t i = next++;
    return target.put(bench_metadata(scope_digest_for("growth", i)),
                      payload.stamped(payload_stamp(StampRole::growth, 0, 0)),
                      kBenchNowMs + static_cast<std::int64_t>(i) * step_ms);
  }
};

GrowingSegment& growing_segment(BenchBackend backend, std::int64_t count, std::size_t size,
                                const BenchConfig& config) {
  static std::map<std::tuple<BenchBackend, std::int64_t, std::size_t>,
                  std::unique_ptr<GrowingSegment>>
      all;
  auto& slot = all[{backend, count, size}];
  if (!slot) slot = std::make_unique<GrowingSegment>(backend, count, size, config);
  return *slot;
}

}  // namespace

void bench_put_growth(benchmark::State& state, BenchBackend backend, std::int64_t publications,
                      std::size_t size, const BenchConfig& config) {
  GrowingSegment& segment = growing_segment(backend, publications, size, config);
  std::uint64_t checksum = 0;
  const auto loop_start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    const SegmentRecord record = segment.put(*segment.store);
    if (static_cast<std::int64_t>(record.publications.size()) != publications) {
      state.SkipWithError("a growth put did not keep its segment's publication count");
      break;
    }
    checksum ^= checksum_bits(record.segment_id);
  }
  const std::chrono::duration<double> loop = std::chrono::steady_clock::now() - loop_start;
  report_work(state, state.iterations(), state.iterations() * static_cast<std::int64_t>(size),
              checksum);

  // Untimed: how much of a put reading the whole record back is, as the
  // time of a get of the same segment over the mean time of a timed put.
  if (state.iterations() > 0) {
    const std::string id = segment.put(*segment.store).segment_id;
    const auto get_start = std::chrono::steady_clock::now();
    for (int i = 0; i < kSamples; ++i) {
      if (!segment.store->get(id)) state.SkipWithError("the growing segment is gone");
    }
    const std::chrono::duration<double> gets = std::chrono::steady_clock::now() - get_start;
    state.counters["get_share"] = benchmark::Counter(
        (gets.count() / kSamples) / (loop.count() / static_cast<double>(state.iterations())));
  }

  // Untimed: what a put writes to the WAL, over a few more puts.
  if (!segment.site->wal_written()) return;
  std::int64_t written = 0;
  for (int i = 0; i < kSamples; ++i) {
    segment.put(*segment.store);
    written += *segment.site->wal_written();
  }
  const double per_put = static_cast<double>(written) / kSamples;
  state.counters[backend == BenchBackend::sqlite ? "wal_frames_per_put" : "wal_bytes_per_put"] =
      benchmark::Counter(per_put);
}

}  // namespace ssp::bench
