// Loops a store benchmark and its floor share, so that both do the same work
// on the same bytes in the same order, and what every put benchmark starts
// with.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "common/bench_config.hpp"
#include "common/payload.hpp"
#include "population.hpp"

namespace ssp::bench {

// The payloads of one thread of a put benchmark: bytes(i) is the i-th payload
// of `role` on this thread, distinct across roles, threads and indexes.
class ThreadPayloads {
 public:
  ThreadPayloads(const benchmark::State& state, StampRole role, std::size_t size,
                 const BenchConfig& config);
  std::span<const std::uint8_t> bytes(std::uint64_t index);

 private:
  PayloadStream stream_;
  StampRole role_;
  int thread_;
};

// Sets the items and bytes a run processed and its checksum counter.
void report_work(benchmark::State& state, std::int64_t items, std::int64_t bytes,
                 std::uint64_t checksum);

// One new payload per iteration through `put(bytes, index)`, which stores it
// and returns its segment id.
void put_each_new_payload(
    benchmark::State& state, std::size_t size, const BenchConfig& config,
    const std::function<std::string(std::span<const std::uint8_t>, std::uint64_t)>& put);

// One random segment of `size` bytes from `stored` per iteration through
// `read(id)`, which returns how many bytes it got for that id. Stops the
// benchmark with an error naming the id when that is not `size`.
void read_each_random_segment(benchmark::State& state, const Population& stored,
                              std::size_t size, const BenchConfig& config,
                              const std::function<std::size_t(const std::string&)>& read);

}  // namespace ssp::bench
