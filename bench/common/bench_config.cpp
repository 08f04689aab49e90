#include "bench_config.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string_view>

namespace ssp::bench {
namespace {

std::optional<std::string> variable(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

}  // namespace

BenchConfig bench_config_from_environment() {
  BenchConfig config;
  if (const auto smoke = variable("SSP_BENCH_SMOKE")) {
    if (*smoke != "0" && *smoke != "1") {
      throw std::invalid_argument("SSP_BENCH_SMOKE must be 0 or 1, not " + *smoke);
    }
    config.smoke = *smoke == "1";
  }
  if (const auto iterations = variable("SSP_BENCH_ITERATIONS")) {
    config.fixed_iterations = std::stoll(*iterations);
    if (*config.fixed_iterations < 1) {
      throw std::invalid_argument("SSP_BENCH_ITERATIONS must be positive, not " + *iterations);
    }
  } else if (config.smoke) {
    config.fixed_iterations = 3;
  }
  config.payload_sizes = {1024, 64 * 1024, 1024 * 1024};
  config.populations = config.smoke ? std::vector<std::int64_t>{1'000}
                                    : std::vector<std::int64_t>{1'000, 10'000, 100'000};
  config.put_threads = {1, 2, 4};
  config.push_operations = {1, 10};
  config.push_threads = {1, 4};
  config.push_partitions = {1, 4};
  config.push_population = config.smoke ? 1'000 : 100'000;
  if (const auto seed = variable("SSP_BENCH_SEED")) {
    config.seed = static_cast<std::uint32_t>(std::stoul(*seed, nullptr, 0));
  }
  for (const auto& [name, durability] :
       {std::pair{"SSP_BENCH_SQLITE_DURABILITY", &config.sqlite_durability},
        std::pair{"SSP_BENCH_PUSH_DURABILITY", &config.push_sqlite_durability}}) {
    const auto value = variable(name);
    if (!value) continue;
    const auto parsed = sqlite_durability_from_name(*value);
    if (!parsed) {
      throw std::invalid_argument(std::string(name) + " must be normal or full, not " + *value);
    }
    *durability = *parsed;
  }
  config.pg_dsn = variable("SSP_PG_DSN");
  config.pg_required = variable("SSP_REQUIRE_PG") == std::optional<std::string>("1");
  if (!config.pg_dsn) {
    config.pg_skip_reason =
        "SSP_PG_DSN is not set; run under scripts/with-postgres (or scripts/bench) to include "
        "PostgreSQL";
  }
  return config;
}

std::string size_label(std::size_t bytes) {
  if (bytes % (1024 * 1024) == 0) return std::to_string(bytes / (1024 * 1024)) + "MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + "KiB";
  return std::to_string(bytes) + "B";
}

}  // namespace ssp::bench
