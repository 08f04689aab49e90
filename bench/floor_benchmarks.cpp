#include "benchmarks.hpp"
#include "payload.hpp"
#include "population.hpp"

namespace ssp::bench {

void bench_floor_sha256(benchmark::State& state, std::size_t size, const BenchConfig& config) {
  PayloadStream payload(size, config.seed);
  std::uint64_t checksum = 0;
  std::uint64_t index = 0;
  for (auto _ : state) {
    const auto digest =
        openssl_sha256(payload.stamped(payload_stamp(StampRole::put, state.thread_index(), index)));
    checksum ^= checksum_bits(digest);
    ++index;
  }
  report_work(state, state.iterations(), state.iterations() * static_cast<std::int64_t>(size),
              checksum);
}

void bench_floor_insert(benchmark::State& state, SharedSite& sites, BenchBackend backend,
                        std::size_t size, const BenchConfig& config) {
  const auto site = join_site(state, sites, backend, config);
  const auto floor = site->open_floor();
  PayloadStream payload(size, config.seed);
  std::uint64_t checksum = 0;
  std::uint64_t index = 0;
  for (auto _ : state) {
    const std::string id =
        floor->insert(payload.stamped(payload_stamp(StampRole::put, state.thread_index(), index)));
    checksum ^= checksum_bits(id);
    ++index;
  }
  report_work(state, state.iterations(), state.iterations() * static_cast<std::int64_t>(size),
              checksum);
}

void bench_floor_select(benchmark::State& state, BenchBackend backend, std::size_t size,
                        std::int64_t count, const BenchConfig& config) {
  Population& stored = population(backend, count, config);
  const std::vector<std::size_t>& pool = stored.by_size.at(size);
  Mulberry32 pick(config.seed);
  std::uint64_t checksum = 0;
  for (auto _ : state) {
    const std::string& id = stored.ids[pool[pick.below(pool.size())]];
    const Bytes bytes = stored.floor->select(id);
    if (bytes.size() != size) {
      state.SkipWithError(("floor select returned the wrong bytes for " + id).c_str());
      break;
    }
    checksum ^= checksum_bits(id);
  }
  report_work(state, state.iterations(), state.iterations() * static_cast<std::int64_t>(size),
              checksum);
}

}  // namespace ssp::bench
