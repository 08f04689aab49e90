#include "push_benchmarks.hpp"

#include <optional>
#include <stdexcept>
#include <string>

#include "harness/postgres_round_trip_counter.hpp"
#include "payload.hpp"
#include "push_workload.hpp"

namespace ssp::bench {
namespace {

std::shared_ptr<PushSite> join_push_site(benchmark::State& state, SharedPushSite& sites,
                                         BenchBackend backend, const BenchConfig& config) {
  return sites.join(state.threads(), [&] { return make_push_site(backend, config); });
}

// What is wrong with `answer` to `commit`, or nothing when it is applied as
// the benchmark requires.
std::optional<std::string> not_applied(const push::PushAnswer& answer,
                                       const push::PushCommit& commit,
                                       std::int64_t previous_seq) {
  std::string problem = commit.client_id;
  problem += ' ';
  problem += commit.client_commit_id;
  if (answer.status != push::PushAnswerStatus::applied) {
    problem += answer.status == push::PushAnswerStatus::cached ? " answered cached"
                                                               : " answered rejected";
    if (!answer.results.empty()) {
      problem += ": ";
      problem += answer.results.front().code;
      problem += ' ';
      problem += answer.results.front().message;
    }
    return problem;
  }
  if (!answer.commit_seq || *answer.commit_seq <= previous_seq) {
    problem += " was applied without a commit seq above the thread's previous one";
    return problem;
  }
  if (answer.results.size() != commit.operations.size()) {
    problem += " was applied without one record per operation";
    return problem;
  }
  for (const push::OperationResult& record : answer.results) {
    if (record.status != push::OperationStatus::applied) {
      problem += " was applied with an operation that was not";
      return problem;
    }
  }
  return std::nullopt;
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

// The measured loop of bench_push on `site`.
void push_commits(benchmark::State& state, PushSite& site, int operations, int partitions) {
  const auto storage = site.open_storage();
  const int thread = state.thread_index();
  const PushCommitStream commits(site.schema(), thread, operations);
  const push::PushActor actor{push_partition(thread, partitions), "bench-actor",
                              push_bench_scopes()};
  push::PushOptions options;
  std::int64_t now = kBenchNowMs;
  options.clock = [&now] { return now++; };
  std::uint64_t checksum = 0;
  std::uint64_t index = 0;
  std::int64_t previous_seq = 0;
  for (auto _ : state) {
    const push::PushCommit commit = commits.commit(index);
    const push::PushAnswer answer = push::run_push(*storage, site.schema(), actor, commit, options);
    if (const auto problem = not_applied(answer, commit, previous_seq)) {
      state.SkipWithError(problem->c_str());
      break;
    }
    previous_seq = *answer.commit_seq;
    checksum ^= rows_checksum(commit);
    ++index;
  }
  report_commits(state, operations, checksum);
}

// At least `rows` rows in partition push_partition(0, 1) of `site`, pushed in
// commits of 500 operations from a stream of their own. Throws unless every
// commit applies.
void populate_partition(PushSite& site, std::int64_t rows) {
  constexpr int kOperationsPerCommit = 500;
  constexpr int kPopulationStream = 1'000'000;  // no benchmark thread has this index
  const auto storage = site.open_storage();
  const PushCommitStream commits(site.schema(), kPopulationStream, kOperationsPerCommit);
  const push::PushActor actor{push_partition(0, 1), "bench-populator", push_bench_scopes()};
  push::PushOptions options;
  std::int64_t now = kBenchNowMs;
  options.clock = [&now] { return now++; };
  std::int64_t previous_seq = 0;
  for (std::uint64_t index = 0; static_cast<std::int64_t>(index) * kOperationsPerCommit < rows;
       ++index) {
    const push::PushCommit commit = commits.commit(index);
    const push::PushAnswer answer = push::run_push(*storage, site.schema(), actor, commit, options);
    if (const auto problem = not_applied(answer, commit, previous_seq)) {
      throw std::runtime_error("populating the push site: " + *problem);
    }
    previous_seq = *answer.commit_seq;
  }
}

}  // namespace

void bench_push(benchmark::State& state, SharedPushSite& sites, BenchBackend backend,
                int operations, int partitions, const BenchConfig& config) {
  push_commits(state, *join_push_site(state, sites, backend, config), operations, partitions);
}

void bench_push_grown(benchmark::State& state, SharedPushSite& sites, BenchBackend backend,
                      int operations, std::int64_t population, const BenchConfig& config) {
  const auto site = sites.join(state.threads(), [&] {
    std::shared_ptr<PushSite> made = make_push_site(backend, config);
    populate_partition(*made, population);
    return made;
  });
  push_commits(state, *site, operations, 1);
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
  const harness::PostgresRoundTripCounter relay(*config.pg_dsn);
  BenchConfig through_relay = config;
  through_relay.pg_dsn = relay.dsn();
  const auto site = make_postgres_push_site(through_relay);
  const auto storage = site->open_storage();
  const PushCommitStream commits(site->schema(), 0, operations);
  const push::PushActor actor{push_partition(0, 1), "bench-actor", push_bench_scopes()};
  push::PushOptions options;
  std::int64_t now = kBenchNowMs;
  options.clock = [&now] { return now++; };
  // A pooled push connection prepares each statement on its first use, a
  // round trip each, which a long-lived server pays once: one push first.
  std::uint64_t index = 0;
  std::int64_t previous_seq = 0;
  const auto push_one = [&]() -> std::optional<std::string> {
    const push::PushCommit commit = commits.commit(index++);
    const push::PushAnswer answer =
        push::run_push(*storage, site->schema(), actor, commit, options);
    if (auto problem = not_applied(answer, commit, previous_seq)) return problem;
    previous_seq = *answer.commit_seq;
    return std::nullopt;
  };
  if (const auto problem = push_one()) {
    state.SkipWithError(problem->c_str());
    return;
  }
  std::int64_t round_trips = 0;
  for (auto _ : state) {
    const std::int64_t before = relay.round_trips();
    if (const auto problem = push_one()) {
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
