// round_trips_put_*: how many client/server round trips one PostgreSQL put
// makes, counted outside the store by a relay between its connection and the
// server (spec-tests/relay/postgres_relay.hpp). A PostgreSQL
// put is bound by round trips; this is the count behind its rate. The relay
// slows every exchange, so the rate of these benchmarks means nothing: only
// the counter does.
#include <stdexcept>

#include "bench_loops.hpp"
#include "benchmarks.hpp"
#include "relay/postgres_relay.hpp"

namespace ssp::bench {
namespace {

// The payload index of the warm-up put, above any index the loop reaches.
constexpr std::uint64_t kWarmUp = std::uint64_t{1} << 40;

}  // namespace

std::string_view round_trip_put_name(RoundTripPut put) {
  switch (put) {
    case RoundTripPut::put_new: return "put_new";
    case RoundTripPut::put_merge: return "put_merge";
    case RoundTripPut::put_repeat: return "put_repeat";
  }
  return "?";
}

void bench_put_round_trips(benchmark::State& state, RoundTripPut put, std::size_t size,
                           const BenchConfig& config) {
  if (!config.pg_dsn) throw std::runtime_error(config.pg_skip_reason);
  const harness::PostgresRelay relay(*config.pg_dsn);
  BenchConfig through_relay = config;
  through_relay.pg_dsn = relay.dsn();
  const auto site = make_postgres_site(through_relay);
  const auto store = site->open_store();
  const StampRole role = put == RoundTripPut::put_merge    ? StampRole::merge
                         : put == RoundTripPut::put_repeat ? StampRole::repeat
                                                           : StampRole::put;
  ThreadPayloads payloads(state, role, size, config);
  if (put == RoundTripPut::put_repeat) {
    for (std::uint64_t i = 0; i < kRepeatPool; ++i) {
      store->put(bench_metadata(scope_digest_for("repeat", i)), payloads.bytes(i), kBenchNowMs);
    }
  }
  // The store prepares its statements on first use, a round trip each, which
  // a long-lived connection pays once: one put of the measured kind first.
  if (put == RoundTripPut::put_new) {
    store->put(bench_metadata(scope_digest_for("new", kWarmUp)), payloads.bytes(kWarmUp),
               kBenchNowMs);
  } else if (put == RoundTripPut::put_merge) {
    for (const char* scope : {"first", "second"}) {
      store->put(bench_metadata(scope_digest_for(scope, kWarmUp)), payloads.bytes(kWarmUp),
                 kBenchNowMs);
    }
  } else {
    // Later than the first put: a put that changes nothing may write nothing.
    store->put(bench_metadata(scope_digest_for("repeat", 0)), payloads.bytes(0),
               kBenchNowMs + 1);
  }
  const std::size_t expected_publications = put == RoundTripPut::put_merge ? 2 : 1;
  std::int64_t round_trips = 0;
  std::uint64_t checksum = 0;
  std::uint64_t index = 0;
  for (auto _ : state) {
    const std::uint64_t i = put == RoundTripPut::put_repeat ? index % kRepeatPool : index;
    std::string digest = scope_digest_for("new", i);
    if (put == RoundTripPut::put_merge) {
      store->put(bench_metadata(scope_digest_for("first", i)), payloads.bytes(i), kBenchNowMs);
      digest = scope_digest_for("second", i);
    } else if (put == RoundTripPut::put_repeat) {
      digest = scope_digest_for("repeat", i);
    }
    const std::int64_t before = relay.round_trips();
    const SegmentRecord record =
        store->put(bench_metadata(digest), payloads.bytes(i),
                   kBenchNowMs + (put == RoundTripPut::put_repeat
                                      ? 2 + static_cast<std::int64_t>(index)
                                      : 0));
    round_trips += relay.round_trips() - before;
    if (record.publications.size() != expected_publications) {
      state.SkipWithError("a put through the relay returned the wrong publications");
      break;
    }
    checksum ^= checksum_bits(record.segment_id);
    ++index;
  }
  report_work(state, state.iterations(), state.iterations() * static_cast<std::int64_t>(size),
              checksum);
  if (state.iterations() > 0) {
    state.counters["round_trips_per_put"] = benchmark::Counter(
        static_cast<double>(round_trips) / static_cast<double>(state.iterations()));
  }
}

}  // namespace ssp::bench
