// push.run through the reference driver, the schema carried against not
// (driver protocol 2, sixth revision: ensuredSchema). Each iteration sends the
// push benchmark's next commit twice over the protocol, to one storage the
// driver opened on a fresh push site: once with the compiled schema in the
// request, as every harness did before, which the driver parses and compiles
// again; once without, which the driver runs under the schema its
// storage.ensure_schema put in force. Interleaved pairs (interleaved_pairs.hpp)
// with counters carried_commits_per_second, ensured_commits_per_second,
// carried_over_ensured, and each side's CPU time of this thread (the harness's
// end: the driver's work is in another process, in the wall time only).
#pragma once

#include <benchmark/benchmark.h>

#include "common/bench_config.hpp"
#include "segments/bench_site.hpp"

namespace ssp::bench {

// `operations` upserts a commit, on a SQL backend. Stops with an error unless
// the driver declares ensuredSchema and every push answers applied (the push
// benchmarks' check, applied_answer.hpp).
void bench_driver_push_pairs(benchmark::State& state, BenchBackend backend, int operations,
                             const BenchConfig& config);

}  // namespace ssp::bench
