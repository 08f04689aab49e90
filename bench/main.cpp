// ssp-bench: segment store and push throughput next to the raw floor of the
// same machine (see bench/README.md). Google Benchmark flags apply; the
// environment chooses the matrix (bench_config.hpp).
#include <benchmark/benchmark.h>
#include <openssl/crypto.h>
#include <sqlite3.h>

#include <fstream>
#include <iostream>
#include <stdexcept>

#include "common/bench_config.hpp"
#include "common/failure_counting_reporter.hpp"
#include "push/push_site.hpp"
#include "registration.hpp"
#include "segments/bench_site.hpp"
#include "segments/population.hpp"

namespace {

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "unknown";
}

// What the table needs to say which machine, libraries and durability it
// measured; it lands in the JSON "context".
void describe_run(const ssp::bench::BenchConfig& config) {
  benchmark::AddCustomContext("cpu_model", cpu_model());
  benchmark::AddCustomContext("ssp_build_type", SSP_BUILD_TYPE);
  benchmark::AddCustomContext("smoke", config.smoke ? "1" : "0");
  benchmark::AddCustomContext("seed", std::to_string(config.seed));
  benchmark::AddCustomContext("sqlite_version", sqlite3_libversion());
  benchmark::AddCustomContext("sqlite_durability",
                              ssp::sqlite_durability_pragmas(config.sqlite_durability));
  benchmark::AddCustomContext("sqlite_server_storage_durability",
                              ssp::sqlite_durability_pragmas(config.push_sqlite_durability));
  benchmark::AddCustomContext("openssl_version", OpenSSL_version(OPENSSL_VERSION));
  if (!config.pg_dsn) {
    if (config.pg_required) {
      throw std::runtime_error("SSP_REQUIRE_PG=1 but " + config.pg_skip_reason);
    }
    benchmark::AddCustomContext("postgres_skipped", config.pg_skip_reason);
    std::cerr << "ssp-bench: PostgreSQL benchmarks skipped: " << config.pg_skip_reason << "\n";
    return;
  }
  for (const auto& [name, value] : ssp::bench::postgres_settings(*config.pg_dsn)) {
    benchmark::AddCustomContext(name, value);
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  ssp::bench::BenchConfig config;
  try {
    config = ssp::bench::bench_config_from_environment();
    describe_run(config);
  } catch (const std::exception& error) {
    std::cerr << "ssp-bench: " << error.what() << "\n";
    return 2;
  }
  ssp::bench::register_benchmarks(config);
  ssp::bench::FailureCountingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  ssp::bench::release_populations();
  benchmark::Shutdown();
  if (reporter.failures() > 0) {
    std::cerr << "ssp-bench: " << reporter.failures() << " benchmark(s) stopped with an error\n";
    return 1;
  }
  return 0;
}
