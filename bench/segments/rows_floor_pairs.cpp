// The store against its rows floor in interleaved pairs: each iteration does
// one operation through the store and the same operation on the same bytes
// through the rows floor, in alternating order, each timed on its own
// (common/interleaved_pairs.hpp), so that a noisy machine's slow seconds fall
// on both. Both sides must see the same segment ids: their checksums are
// compared at the end.
#include "bench_loops.hpp"
#include "benchmarks.hpp"
#include "common/interleaved_pairs.hpp"

namespace ssp::bench {
namespace {

// The ids one side of a pair saw, as a checksum, and whether its answers had
// the expected publication count.
class PairSide {
 public:
  // Records `record`; false (the benchmark stopped with an error naming
  // `side`) when it does not hold `publications` publications.
  bool saw(benchmark::State& state, const char* side, const SegmentRecord& record,
           std::size_t publications) {
    if (record.publications.size() != publications) {
      state.SkipWithError((std::string(side) + ": a put answered " +
                           std::to_string(record.publications.size()) + " publications, not " +
                           std::to_string(publications))
                              .c_str());
      return false;
    }
    checksum_ ^= checksum_bits(record.segment_id);
    return true;
  }
  void saw_id(const std::string& id) { checksum_ ^= checksum_bits(id); }
  std::uint64_t checksum() const { return checksum_; }

 private:
  std::uint64_t checksum_ = 0;
};

// After the pairs: the checksum counter, bytes/s over both sides, and an
// error when the two sides did not see the same segments.
void report_pairs(benchmark::State& state, std::size_t size, const PairSide& store,
                  const PairSide& floor) {
  if (store.checksum() != floor.checksum()) {
    state.SkipWithError("the store and its rows floor did not see the same segments");
  }
  state.SetBytesProcessed(2 * state.iterations() * static_cast<std::int64_t>(size));
  state.counters["checksum"] = benchmark::Counter(static_cast<double>(store.checksum()));
}

}  // namespace

void bench_put_new_paired(benchmark::State& state, BenchBackend backend, std::size_t size,
                          const BenchConfig& config) {
  const auto site = make_bench_site(backend, config);
  const auto store = site->open_store();
  const auto floor = site->open_rows_floor();
  ThreadPayloads payloads(state, StampRole::put, size, config);
  PairSide store_side, floor_side;
  std::uint64_t store_next = 0, floor_next = 0;
  const PairStep store_step{
      "store", [&] {
        const std::uint64_t i = store_next++;
        return store_side.saw(
            state, "store",
            store->put(bench_metadata(scope_digest_for("new", i)), payloads.bytes(i), kBenchNowMs),
            1);
      }};
  const PairStep floor_step{"floor", [&] {
                              const std::uint64_t i = floor_next++;
                              return floor_side.saw(
                                  state, "rows floor",
                                  floor->put_new(bench_metadata(scope_digest_for("new", i)),
                                                 payloads.bytes(i), kBenchNowMs),
                                  1);
                            }};
  run_interleaved_pairs(state, store_step, floor_step, "puts");
  report_pairs(state, size, store_side, floor_side);
}

void bench_put_merge_paired(benchmark::State& state, BenchBackend backend, std::size_t size,
                            const BenchConfig& config) {
  const auto site = make_bench_site(backend, config);
  const auto store = site->open_store();
  const auto floor = site->open_rows_floor();
  ThreadPayloads payloads(state, StampRole::merge, size, config);
  PairSide store_side, floor_side;
  std::uint64_t store_next = 0, floor_next = 0;
  // The first put of each segment is the untimed prepare; the merging put
  // under a second digest is the measured step.
  const PairStep store_step{"store",
                            [&] {
                              const std::uint64_t i = store_next++;
                              return store_side.saw(
                                  state, "store",
                                  store->put(bench_metadata(scope_digest_for("second", i)),
                                             payloads.bytes(i), kBenchNowMs),
                                  2);
                            },
                            [&] {
                              store->put(bench_metadata(scope_digest_for("first", store_next)),
                                         payloads.bytes(store_next), kBenchNowMs);
                              return true;
                            }};
  const PairStep floor_step{"floor",
                            [&] {
                              const std::uint64_t i = floor_next++;
                              return floor_side.saw(
                                  state, "rows floor",
                                  floor->put_merge(bench_metadata(scope_digest_for("second", i)),
                                                   payloads.bytes(i), kBenchNowMs),
                                  2);
                            },
                            [&] {
                              floor->put_new(bench_metadata(scope_digest_for("first", floor_next)),
                                             payloads.bytes(floor_next), kBenchNowMs);
                              return true;
                            }};
  run_interleaved_pairs(state, store_step, floor_step, "puts");
  report_pairs(state, size, store_side, floor_side);
}

void bench_get_paired(benchmark::State& state, BenchBackend backend, std::size_t size,
                      std::int64_t count, const BenchConfig& config) {
  const Population& stored = population(backend, count, config);
  const auto floor = stored.site->open_rows_floor_on_store();
  const std::vector<std::size_t>& pool = stored.by_size.at(size);
  // Both sides draw the same sequence of segments.
  Mulberry32 store_pick(config.seed), floor_pick(config.seed);
  PairSide store_side, floor_side;
  const auto read = [&](benchmark::State& s, const char* side, Mulberry32& pick, PairSide& seen,
                        auto&& get) {
    const std::string& id = stored.ids[pool[pick.below(pool.size())]];
    const std::optional<StoredSegment> segment = get(id);
    if (!segment || segment->bytes.size() != size || segment->record.publications.size() != 1) {
      s.SkipWithError(
          (std::string(side) + ": did not get the " + size_label(size) + " of " + id).c_str());
      return false;
    }
    seen.saw_id(id);
    return true;
  };
  const PairStep store_step{"store", [&] {
                              return read(
                                  state, "store", store_pick, store_side,
                                  [&](const std::string& id) { return stored.store->get(id); });
                            }};
  const PairStep floor_step{"floor", [&] {
                              return read(state, "rows floor", floor_pick, floor_side,
                                          [&](const std::string& id) { return floor->get(id); });
                            }};
  run_interleaved_pairs(state, store_step, floor_step, "gets");
  report_pairs(state, size, store_side, floor_side);
}

}  // namespace ssp::bench
