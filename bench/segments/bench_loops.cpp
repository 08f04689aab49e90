#include "bench_loops.hpp"

namespace ssp::bench {

ThreadPayloads::ThreadPayloads(const benchmark::State& state, StampRole role, std::size_t size,
                               const BenchConfig& config)
    : stream_(size, config.seed), role_(role), thread_(state.thread_index()) {}

std::span<const std::uint8_t> ThreadPayloads::bytes(std::uint64_t index) {
  return stream_.stamped(payload_stamp(role_, thread_, index));
}

void report_work(benchmark::State& state, std::int64_t items, std::int64_t bytes,
                 std::uint64_t checksum) {
  state.SetItemsProcessed(items);
  state.SetBytesProcessed(bytes);
  state.counters["checksum"] = benchmark::Counter(static_cast<double>(checksum));
}

void put_each_new_payload(
    benchmark::State& state, std::size_t size, const BenchConfig& config,
    const std::function<std::string(std::span<const std::uint8_t>, std::uint64_t)>& put) {
  ThreadPayloads payloads(state, StampRole::put, size, config);
  std::uint64_t checksum = 0;
  std::uint64_t index = 0;
  for (auto _ : state) {
    checksum ^= checksum_bits(put(payloads.bytes(index), index));
    ++index;
  }
  report_work(state, state.iterations(), state.iterations() * static_cast<std::int64_t>(size),
              checksum);
}

void read_each_random_segment(benchmark::State& state, const Population& stored,
                              std::size_t size, const BenchConfig& config,
                              const std::function<std::size_t(const std::string&)>& read) {
  const std::vector<std::size_t>& pool = stored.by_size.at(size);
  Mulberry32 pick(config.seed);
  std::uint64_t checksum = 0;
  for (auto _ : state) {
    const std::string& id = stored.ids[pool[pick.below(pool.size())]];
    if (read(id) != size) {
      state.SkipWithError(("did not read the " + size_label(size) + " of " + id).c_str());
      break;
    }
    checksum ^= checksum_bits(id);
  }
  report_work(state, state.iterations(), state.iterations() * static_cast<std::int64_t>(size),
              checksum);
}

}  // namespace ssp::bench
