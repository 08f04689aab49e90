// A store holding a given number of segments, with the floor table holding the
// same bytes, built once per backend and count and shared by the get, find and
// stats benchmarks (building 100 000 segments per iteration is not an option).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_site.hpp"
#include "common/bench_config.hpp"

namespace ssp::bench {

// Segment j is published under bench_metadata(population_digest(j)). For each
// payload size but the smallest, a pool of the first segments has that size
// (32 MiB worth: 512 of 64 KiB, 32 of 1 MiB); every other segment has the
// smallest size.
struct Population {
  std::int64_t count = 0;
  std::unique_ptr<BenchSite> site;
  std::shared_ptr<SegmentStore> store;   // the measured connection
  std::unique_ptr<FloorDatabase> floor;  // nullptr for memory
  std::vector<std::string> ids;          // segment id by index
  std::map<std::size_t, std::vector<std::size_t>> by_size;  // payload size → indices
};

std::string population_digest(std::size_t index);

// The population of `count` segments on `backend`, loaded on first use through
// the store's own put (one transaction per segment, on a loading store) and
// the floor's INSERT (one transaction for all), then kept until
// release_populations(). Not thread-safe: call from single-threaded benchmarks.
Population& population(BenchBackend backend, std::int64_t count, const BenchConfig& config);

// Destroys every population (temp files removed, schemas dropped).
void release_populations();

}  // namespace ssp::bench
