#include "bench_loops.hpp"
#include "benchmarks.hpp"

namespace ssp::bench {

void bench_floor_sha256(benchmark::State& state, std::size_t size, const BenchConfig& config) {
  ThreadPayloads payloads(state, StampRole::put, size, config);
  std::uint64_t checksum = 0;
  std::uint64_t index = 0;
  for (auto _ : state) {
    checksum ^= checksum_bits(openssl_sha256(payloads.bytes(index)));
    ++index;
  }
  report_work(state, state.iterations(), state.iterations() * static_cast<std::int64_t>(size),
              checksum);
}

void bench_floor_insert(benchmark::State& state, SharedSite& sites, BenchBackend backend,
                        std::size_t size, const BenchConfig& config) {
  const auto site = join_site(state, sites, backend, config);
  const auto floor = site->open_floor();
  put_each_new_payload(state, size, config,
                       [&](std::span<const std::uint8_t> bytes, std::uint64_t) {
                         return floor->insert(bytes);
                       });
}

void bench_floor_select(benchmark::State& state, BenchBackend backend, std::size_t size,
                        std::int64_t count, const BenchConfig& config) {
  const Population& stored = population(backend, count, config);
  read_each_random_segment(state, stored, size, config, [&](const std::string& id) {
    return stored.floor->select(id).size();
  });
}

}  // namespace ssp::bench
