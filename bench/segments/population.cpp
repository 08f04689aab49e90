#include "population.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "common/payload.hpp"

namespace ssp::bench {
namespace {

constexpr std::size_t kPoolBytes = 32 * 1024 * 1024;

std::map<std::tuple<BenchBackend, std::int64_t>, std::unique_ptr<Population>>& populations() {
  static std::map<std::tuple<BenchBackend, std::int64_t>, std::unique_ptr<Population>> all;
  return all;
}

// Payload size of each segment index, as described at Population.
std::vector<std::size_t> size_plan(std::int64_t count, std::vector<std::size_t> sizes) {
  std::sort(sizes.begin(), sizes.end());
  std::vector<std::size_t> plan;
  for (auto size = sizes.rbegin(); size + 1 < sizes.rend(); ++size) {
    plan.insert(plan.end(), std::max<std::size_t>(1, kPoolBytes / *size), *size);
  }
  if (plan.size() >= static_cast<std::size_t>(count)) {
    throw std::invalid_argument("population of " + std::to_string(count) +
                                " segments is smaller than its large-payload pools");
  }
  plan.resize(static_cast<std::size_t>(count), sizes.front());
  return plan;
}

std::unique_ptr<Population> load(BenchBackend backend, std::int64_t count,
                                  const BenchConfig& config) {
  auto built = std::make_unique<Population>();
  built->count = count;
  built->site = make_bench_site(backend, config);
  const std::vector<std::size_t> plan = size_plan(count, config.payload_sizes);
  std::map<std::size_t, PayloadStream> streams;
  for (const std::size_t size : config.payload_sizes) streams.try_emplace(size, size, config.seed);

  const std::shared_ptr<SegmentStore> loader = built->site->open_loading_store();
  std::unique_ptr<FloorDatabase> floor = built->site->open_floor();
  const auto load_all = [&] {
    for (std::size_t j = 0; j < plan.size(); ++j) {
      const auto bytes = streams.at(plan[j]).stamped(payload_stamp(StampRole::population, 0, j));
      const std::string id =
          loader->put(bench_metadata(population_digest(j)), bytes, kBenchNowMs).segment_id;
      if (floor && floor->insert(bytes) != id) {
        throw std::logic_error("population: the floor and the store disagree on " + id);
      }
      built->ids.push_back(id);
      built->by_size[plan[j]].push_back(j);
    }
  };
  if (floor) {
    floor->in_one_transaction(load_all);
  } else {
    load_all();
  }
  built->site->settle();
  built->store = built->site->open_store();
  built->floor = std::move(floor);
  return built;
}

}  // namespace

std::string population_digest(std::size_t index) { return scope_digest_for("pop", index); }

Population& population(BenchBackend backend, std::int64_t count, const BenchConfig& config) {
  auto& slot = populations()[{backend, count}];
  if (!slot) slot = load(backend, count, config);
  return *slot;
}

void release_populations() { populations().clear(); }

}  // namespace ssp::bench
