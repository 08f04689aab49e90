#include "push_benchmarks.hpp"

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "common/interleaved_pairs.hpp"
#include "applied_answer.hpp"
#include "common/payload.hpp"
#include "relay/postgres_relay.hpp"
#include "push_workload.hpp"
#include "ssp/push/push_pipeline.hpp"

namespace ssp::bench {
namespace {

std::shared_ptr<PushSite> join_push_site(benchmark::State& state, SharedPushSite& sites,
                                         BenchBackend backend, const BenchConfig& config) {
  return sites.join(state.threads(), [&] { return make_push_site(backend, config); });
}

std::uint64_t rows_checksum(const push::PushCommit& commit) {
  std::uint64_t bits = 0;
  for (const push::PushOperation& operation : commit.operations) {
    bits ^= row_checksum_bits(operation.row_id);
  }
  return bits;
}

void report_commits(benchmark::State& state, int operations, std::uint64_t checksum) {
  state.SetItemsProcessed(state.iterations());
  state.counters["rows_per_second"] = benchmark::Counter(
      static_cast<double>(state.iterations() * operations), benchmark::Counter::kIsRate);
  state.counters["checksum"] = benchmark::Counter(static_cast<double>(checksum));
}

// Pushes one stream's commits (PushCommitStream), one per call, through
// run_push on `storage`, as `actor_id` on `partition`, with a clock that
// starts at kBenchNowMs and ticks once per read. Not movable: the clock
// points into it.
class StreamPusher {
 public:
  StreamPusher(storage::ServerStorage& storage, const storage::CompiledSchema& schema, int stream,
               int operations, const std::string& partition, const std::string& actor_id)
      : storage_(storage),
        schema_(schema),
        commits_(schema, stream, operations),
        actor_{partition, actor_id, push_bench_scopes()} {
    options_.clock = [this] { return now_++; };
  }
  StreamPusher(const StreamPusher&) = delete;
  StreamPusher& operator=(const StreamPusher&) = delete;

  // Pushes the stream's next commit. What is wrong with its answer
  // (not_applied), or nothing when it was applied.
  std::optional<std::string> push_next() {
    const push::PushCommit commit = commits_.commit(index_++);
    const push::PushAnswer answer = push::run_push(storage_, schema_, actor_, commit, options_);
    if (auto problem = not_applied(answer, commit, previous_seq_)) return problem;
    previous_seq_ = *answer.commit_seq;
    checksum_ ^= rows_checksum(commit);
    return std::nullopt;
  }

  // rows_checksum of every commit applied so far, XORed.
  std::uint64_t checksum() const { return checksum_; }

 private:
  storage::ServerStorage& storage_;
  const storage::CompiledSchema& schema_;
  const PushCommitStream commits_;
  const push::PushActor actor_;
  push::PushOptions options_;
  std::int64_t now_ = kBenchNowMs;
  std::uint64_t index_ = 0;
  std::int64_t previous_seq_ = 0;
  std::uint64_t checksum_ = 0;
};

const std::string kBenchActor = "bench-actor";

// A pair step (interleaved_pairs.hpp) pushing `pusher`'s next commit.
std::function<bool()> pushing(benchmark::State& state, StreamPusher& pusher) {
  return [&state, &pusher] {
    const auto problem = pusher.push_next();
    if (problem) state.SkipWithError(problem->c_str());
    return !problem;
  };
}

// The measured loop of bench_push on `site`.
void push_commits(benchmark::State& state, PushSite& site, int operations, int partitions) {
  const auto storage = site.open_storage();
  const int thread = state.thread_index();
  StreamPusher pusher(*storage, site.schema(), thread, operations,
                      push_partition(thread, partitions), kBenchActor);
  for (auto _ : state) {
    if (const auto problem = pusher.push_next()) {
      state.SkipWithError(problem->c_str());
      break;
    }
  }
  report_commits(state, operations, pusher.checksum());
}

// At least `rows` rows in partition push_partition(0, 1) of `site`, pushed in
// commits of 500 operations from a stream of their own. Throws unless every
// commit applies.
void populate_partition(PushSite& site, std::int64_t rows) {
  constexpr int kOperationsPerCommit = 500;
  constexpr int kPopulationStream = 1'000'000;  // no benchmark thread has this index
  const auto storage = site.open_storage();
  StreamPusher pusher(*storage, site.schema(), kPopulationStream, kOperationsPerCommit,
                      push_partition(0, 1), "bench-populator");
  for (std::int64_t pushed = 0; pushed < rows; pushed += kOperationsPerCommit) {
    if (const auto problem = pusher.push_next()) {
      throw std::runtime_error("populating the push site: " + *problem);
    }
  }
}

}  // namespace

void bench_push(benchmark::State& state, SharedPushSite& sites, BenchBackend backend,
                int operations, int partitions, const BenchConfig& config) {
  push_commits(state, *join_push_site(state, sites, backend, config), operations, partitions);
}

void bench_push_growth(benchmark::State& state, BenchBackend backend, int operations,
                       std::int64_t population, const BenchConfig& config) {
  const std::unique_ptr<PushSite> grown_site = make_push_site(backend, config);
  populate_partition(*grown_site, population);
  const std::unique_ptr<PushSite> empty_site = make_push_site(backend, config);
  const auto grown_storage = grown_site->open_storage();
  const auto empty_storage = empty_site->open_storage();
  const std::string partition = push_partition(0, 1);
  StreamPusher grown(*grown_storage, grown_site->schema(), 0, operations, partition, kBenchActor);
  StreamPusher empty(*empty_storage, empty_site->schema(), 0, operations, partition, kBenchActor);
  run_interleaved_pairs(state, {"grown", pushing(state, grown)}, {"empty", pushing(state, empty)});
}

void bench_push_paired(benchmark::State& state, BenchBackend backend, int operations,
                       const BenchConfig& config) {
  const std::unique_ptr<PushSite> site = make_push_site(backend, config);
  const auto storage = site->open_storage();
  const auto floor = site->open_rows_floor();
  const std::string partition = push_partition(0, 1);
  StreamPusher pusher(*storage, site->schema(), 0, operations, partition, kBenchActor);
  const PushCommitStream floor_commits(site->schema(), 0, operations);
  std::uint64_t floor_index = 0;
  std::int64_t floor_now = kBenchNowMs;
  const auto floor_step = [&] {
    floor->write_commit(floor_commits.commit(floor_index++), partition, floor_now++);
    return true;
  };
  run_interleaved_pairs(state, {"push", pushing(state, pusher)}, {"floor", floor_step});
}

void bench_push_floor(benchmark::State& state, SharedPushSite& sites, BenchBackend backend,
                      int operations, const BenchConfig& config) {
  const auto site = join_push_site(state, sites, backend, config);
  const auto floor = site->open_floor();
  const PushCommitStream commits(site->schema(), state.thread_index(), operations);
  std::uint64_t checksum = 0;
  std::uint64_t index = 0;
  for (auto _ : state) {
    const push::PushCommit commit = commits.commit(index);
    floor->insert_rows(commit.operations);
    checksum ^= rows_checksum(commit);
    ++index;
  }
  report_commits(state, operations, checksum);
}

void bench_push_rows_floor(benchmark::State& state, SharedPushSite& sites, BenchBackend backend,
                           int operations, const BenchConfig& config) {
  const auto site = join_push_site(state, sites, backend, config);
  const auto floor = site->open_rows_floor();
  const int thread = state.thread_index();
  const PushCommitStream commits(site->schema(), thread, operations);
  const std::string partition = push_partition(thread, state.threads());
  std::int64_t now = kBenchNowMs;
  std::uint64_t checksum = 0;
  std::uint64_t index = 0;
  for (auto _ : state) {
    const push::PushCommit commit = commits.commit(index);
    floor->write_commit(commit, partition, now++);
    checksum ^= rows_checksum(commit);
    ++index;
  }
  report_commits(state, operations, checksum);
}

void bench_push_round_trips(benchmark::State& state, int operations, const BenchConfig& config) {
  if (!config.pg_dsn) throw std::runtime_error(config.pg_skip_reason);
  const harness::PostgresRelay relay(*config.pg_dsn);
  BenchConfig through_relay = config;
  through_relay.pg_dsn = relay.dsn();
  const auto site = make_postgres_push_site(through_relay);
  const auto storage = site->open_storage();
  StreamPusher pusher(*storage, site->schema(), 0, operations, push_partition(0, 1), kBenchActor);
  // A pooled push connection prepares each statement on its first use, a
  // round trip each, which a long-lived server pays once: one push first.
  if (const auto problem = pusher.push_next()) {
    state.SkipWithError(problem->c_str());
    return;
  }
  std::int64_t round_trips = 0;
  for (auto _ : state) {
    const std::int64_t before = relay.round_trips();
    if (const auto problem = pusher.push_next()) {
      state.SkipWithError(problem->c_str());
      break;
    }
    round_trips += relay.round_trips() - before;
  }
  state.SetItemsProcessed(state.iterations());
  if (state.iterations() > 0) {
    state.counters["round_trips_per_push"] = benchmark::Counter(
        static_cast<double>(round_trips) / static_cast<double>(state.iterations()));
  }
}

}  // namespace ssp::bench
