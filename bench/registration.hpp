// The benchmark matrix of one run, registered with Google Benchmark.
#pragma once

#include "common/bench_config.hpp"

namespace ssp::bench {

// Registers, per backend (PostgreSQL only with a DSN), in running order:
//  - puts: "<backend>/put_new|put_merge|put_repeat/size:<S>/…/threads:<T>",
//    each put_new next to its floor ("<backend>/floor_insert/…" for SQL
//    backends, "floor/sha256/…" for memory);
//  - PostgreSQL: "postgres/round_trips_put_new|put_merge|put_repeat/size:1KiB",
//    each a fixed 32 iterations unless config.fixed_iterations says otherwise;
//  - per population P: "<backend>/get/size:<S>/population:<P>" next to
//    "<backend>/floor_select/…" (SQL backends);
//  - then "<backend>/find/population:<P>" for every P, then stats likewise;
//  - SQL backends, per operation count N: "<backend>/push_floor/ops:<N>/…"
//    then "<backend>/push/ops:<N>/partitions:<P>/…/threads:<T>" (T ≥ P).
// With config.fixed_iterations every benchmark runs exactly that many.
// `config` must outlive the benchmark run.
void register_benchmarks(const BenchConfig& config);

}  // namespace ssp::bench
