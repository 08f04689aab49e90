// Faults a production push meets, tried on any candidate (issue 35,
// docs/faults.md): its process dies at a point where it waits for the
// harness, or it answers and the answer is lost. After each, a new process
// opens the same database, and the push of the same clientId and
// clientCommitId is sent again. SSP2 asks that a commit apply entirely or not
// at all (§2.1, §6.4 MUST#1) and that its full result be stored before the
// acknowledgement and replayed for the same idempotency key (§2.3, §6.4
// MUST#2): so the database holds the whole commit or none of it, a commit that
// is not there applies once, and one that is there replays with its seq and
// its results. A third fault needs no process of its own: on PostgreSQL the
// harness relays the candidate's connection and cuts it at a round trip,
// before the request or after the answer (which the candidate then never
// hears). The plans (plans/*.plan) name the points and the checks.
//
// A registered remote command (REMOTE §3) is faulted the same way: it commits
// through the push pipeline under a push idempotency key of its own, and a
// retry of an applied command answers `cached` without running it again. Its
// round increments a counter row, so a command that ran twice shows.
#include <gmock/gmock.h>

#include <algorithm>

#include "relay/postgres_relay.hpp"
#include "harness/errors/candidate_killed.hpp"
#include "harness/faults/fault_plan.hpp"
#include "harness/faults/fault_plan_tests.hpp"
#include "harness/faults/fault_sweep.hpp"
#include "harness/faults/faults_doc.hpp"
#include "harness/faults/push_callback_points.hpp"
#include "harness/faults/round_trip_cuts.hpp"
#include "harness/faults/unanswered_calls.hpp"
#include "harness/fixtures/push_rounds.hpp"
#include "harness/util/dump_difference.hpp"

namespace ssp::harness {
namespace {

using push::PushAnswerStatus;

// The tables of push_schema(): a row validator on each is a callback point.
const std::vector<std::string> kFaultTables = {"tasks", "members", "docs"};

// The partition registry (upstream's DDL): SSP2 §2.1 has authentication
// refresh its last-seen timestamp on every request, including one that
// creates no commit. A command refreshes it before its push transaction
// (upstream's operations.ts), so a refresh is the request's, not the commit's.
constexpr const char* kPartitionRegistry = "sync_partition_registry";

// What this engine can check after a fault of `kind`: a plan claims some of
// these, and only what it claims is played (claims()).
std::vector<FaultCheck> checks_played_for(FaultKind kind) {
  switch (kind) {
    case FaultKind::kill:
      return {FaultCheck::untouched_before_commit, FaultCheck::whole_or_none,
              FaultCheck::applies_once, FaultCheck::replays};
    case FaultKind::lose_answer: return {FaultCheck::whole_or_none, FaultCheck::replays};
    case FaultKind::cut:
      return {FaultCheck::fails_cleanly, FaultCheck::whole_or_none, FaultCheck::applies_once,
              FaultCheck::replays};
  }
  return {};
}

class PushFaults : public PushRoundTest {
 protected:
  void SetUp() override {
    PushRoundTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    hooks_ = optional_grant(candidate(), Capability::push_hooks);
    kill_ = optional_grant(candidate(), Capability::process_kill);
    seed_rounds(0, 0);  // the clean run's; each fault's round is seeded once its points are known
  }

  // What a commit may change: the whole database but the partition
  // registry, which every request refreshes.
  std::string commit_state() { return without_table(dump(), kPartitionRegistry); }

  // Plays `plan`: a clean run of its first round names the points, then
  // each chosen point faults a round of its own.
  void play(const FaultPlan& plan) {
    if (const auto why = unplayable_check(plan, checks_played_for(plan.fault))) FAIL() << *why;
    if (plan.fault == FaultKind::cut && backend() != Backend::postgres) {
      GTEST_SKIP() << plan.file << ": a connection is cut on PostgreSQL's wire protocol; a "
                                   "SQLite database has no connection to cut";
    }
    if (plan.fault == FaultKind::cut) relay_through_a_cut();
    const std::vector<std::string> reached = clean_run(plan);
    if (HasFatalFailure()) return;
    FaultSweepStart sweep = start_fault_sweep(plan, backend(), reached, "push");
    if (sweep.skip) GTEST_SKIP() << *sweep.skip;
    if (plan.fault == FaultKind::cut) {
      CutSweepsStarted::of_this_run().record({plan.file, backend()});
    }
    seed_rounds(1, static_cast<int>(sweep.points.size()));
    if (HasFatalFailure()) return;
    int round = 1;
    for (const std::string& point : sweep.points) {
      sweep.record.points.push_back({point, false, ""});
      faulted_round(plan, round++, sweep.record.points.back());
      if (HasFailure()) return;  // one fault's report is enough to debug
    }
    if (plan.fault == FaultKind::cut) {
      ASSERT_GT(cuts_made_, 0) << plan.file << ": the relay cut none of the "
                               << sweep.points.size() << " points: every push ended before its cut";
    }
    FaultSweeps::of_this_run().record(std::move(sweep.record));
  }

 private:
  bool rejected(const FaultPlan& plan) const { return plan.clean_answer == "rejected"; }
  static bool command(const FaultPlan& plan) { return plan.call == "command.run"; }

  // Round `round`'s call through `target`: the push round_commit(round), or
  // for a command plan the round's command.
  push::PushAnswer send(const FaultPlan& plan, int round, storage::ServerStorage& target,
                        const push::PushOptions& working) {
    if (command(plan)) return run_round_command(round, target, working);
    return candidate().push().push(target, schema(), actor(), round_commit(round, rejected(plan)),
                                   working);
  }

  // `working` with the plan's callback points on `points`. A command's commit
  // passes the validators and the notifier as a push's (REMOTE §3), over the
  // one table its round writes; a driver that does not carry them across the
  // protocol leaves a command its hook points alone.
  push::PushOptions instrumented(const FaultPlan& plan, const PushCallbackPoints& points,
                                 const push::PushOptions& working) {
    if (!command(plan)) return points.instrument(working, kFaultTables, hooks_);
    if (candidate().has(Capability::command_callbacks)) {
      return points.instrument(working, {"tasks"}, hooks_);
    }
    return points.instrument_hooks(working, hooks_);
  }

  // The key round `round`'s result is stored under, and how many changes its
  // commit has.
  std::pair<std::string, std::string> result_key(const FaultPlan& plan, int round) {
    if (command(plan)) return round_command_key(round);
    return {"client-1", round_commit(round, rejected(plan)).client_commit_id};
  }
  std::size_t changes_of(const FaultPlan& plan, int round) {
    return command(plan) ? 1 : round_commit(round, rejected(plan)).operations.size();
  }

  void expect_applied(const FaultPlan& plan, int round) {
    if (command(plan)) return expect_round_command_applied(round);
    expect_round_applied(round);
  }
  void expect_not_applied(const FaultPlan& plan, int round) {
    if (command(plan)) return expect_round_command_not_applied(round);
    expect_round_not_applied(round);
  }

  PushAnswerStatus clean_status(const FaultPlan& plan) const {
    return rejected(plan) ? PushAnswerStatus::rejected : PushAnswerStatus::applied;
  }

  // The relay cuts are made through, and where the candidate reaches it.
  void relay_through_a_cut() {
    relay_ = std::make_unique<PostgresRelay>(database().location().pg_dsn);
    relayed_ = database().location();
    relayed_.pg_dsn = relay_->dsn();
  }

  // A storage of the candidate's over the relay, warmed by one push of a row
  // of its own (warm-<n>), as a serving process's storage is: the fault then
  // meets the round trips of a push, not those of a first connection.
  std::unique_ptr<storage::ServerStorage> open_relayed() {
    auto relayed = candidate().open_server_storage(relayed_, {});
    relayed->ensure_schema(schema());
    const std::string n = std::to_string(++warmed_);
    const auto warmed = candidate().push().push(
        *relayed, schema(), actor(),
        commit("warm-" + n, {upsert("tasks", "warm-" + n, task("warm-" + n, "p1"))}), options());
    EXPECT_EQ(warmed.status, PushAnswerStatus::applied) << "the push that warms a connection";
    return relayed;
  }

  // The points a clean call of round 0 passes; it must answer as the plan says.
  std::vector<std::string> clean_run(const FaultPlan& plan) {
    if (plan.fault == FaultKind::lose_answer) return {"answer"};
    if (plan.fault == FaultKind::cut) {
      const auto relayed = open_relayed();
      const std::int64_t before = relay_->request_round_trips();
      const auto answer = send(plan, 0, *relayed, round_options(rejected(plan)));
      EXPECT_EQ(answer.status, clean_status(plan)) << "the clean run of " << plan.file;
      return round_trip_cut_points(relay_->request_round_trips() - before);
    }
    PushCallbackPoints points;
    const auto answer =
        send(plan, 0, storage(), instrumented(plan, points, round_options(rejected(plan))));
    EXPECT_EQ(answer.status, clean_status(plan)) << "the clean run of " << plan.file;
    return points.reached();
  }

  // A new process on the same database: the fault's process is gone (a kill
  // ended it already; after a lost answer it is killed here, so that nothing
  // it kept in memory answers the retry); after a cut, a new connection.
  void restart(FaultKind fault) {
    if (fault == FaultKind::lose_answer && kill_) candidate().kill_process_of(storage());
    reopen().ensure_schema(schema());
  }

  // Kills round `round`'s call at callback `point`.
  void kill_push(const FaultPlan& plan, int round, const push::PushOptions& working,
                 const std::string& point) {
    PushCallbackPoints points;
    points.kill_at(point);
    try {
      const auto answer = send(plan, round, storage(), instrumented(plan, points, working));
      ADD_FAILURE() << "the call never reached " << point
                    << ", which a clean call of the same shape passed; it answered "
                    << ::testing::PrintToString(answer);
    } catch (const CandidateKilled&) {
    }
  }

  // Cuts the push's connection at `point` (round_trip_cut_points' name): the
  // push must answer as a clean one did, or fail with an error; one that ended
  // before the point is judged as the clean call it was. One that never
  // answers is recorded for FAULT-13 (fails-cleanly), and what it left is
  // judged as after any other cut; a DriverError (the driver crashed or broke
  // the protocol) ends the test. Returns the cut, for the trace of what follows.
  CutCall cut_push(const FaultPlan& plan, int round, storage::ServerStorage& relayed,
                   const push::PushOptions& working, const std::string& point) {
    std::optional<push::PushAnswer> answer;
    const CutCall cut =
        cut_during(*relay_, point, [&] { answer = send(plan, round, relayed, working); });
    if (cut.never_answered) {
      // Judged by FAULT-13 where the plan claims fails-cleanly.
      if (claims(plan, FaultCheck::fails_cleanly)) {
        UnansweredCalls::of_this_run().record(
            {plan.file, backend(), point, cut.last_statement_line() + "; " + *cut.never_answered});
      }
      return cut;
    }
    if (!cut.cut) {
      // It ended before the point (pooled_client_rounds, round_trip_cuts.hpp):
      // judged as the clean call it was.
      RecordProperty("uncut_" + point, answer ? "answered" : "failed: " + cut.failure.value_or(""));
      if (answer) {
        EXPECT_EQ(answer->status, clean_status(plan))
            << "the push ended before its cut, but did not answer as a clean push does";
      }
      return cut;
    }
    ++cuts_made_;
    RecordProperty("last_statement_" + point, cut.cut->last_statement);
    if (answer) {
      EXPECT_EQ(answer->status, clean_status(plan))
          << "the push answered across a cut connection, but not as a clean push does\n"
          << cut.last_statement_line();
    }
    return cut;
  }

  // Faults round `round` at `outcome.point`, then fills in what it saw.
  void faulted_round(const FaultPlan& plan, int round, FaultPointOutcome& outcome) {
    const std::string& point = outcome.point;
    static constexpr const char* kFaultWords[] = {"killed at ", "its answer lost at ",
                                                  "its connection cut at "};
    SCOPED_TRACE(plan.file + ": round " + std::to_string(round) + ", " +
                 kFaultWords[static_cast<int>(plan.fault)] + point);
    const push::PushOptions working = round_options(rejected(plan));
    // Opened (and warmed) before the dump the fault is judged against.
    auto relayed = plan.fault == FaultKind::cut ? open_relayed() : nullptr;
    if (HasFailure()) return;
    const std::string before = commit_state();
    const std::size_t commits_before = commits().size();

    std::optional<push::PushAnswer> heard;
    std::optional<::testing::ScopedTrace> cut_trace;  // a cut's last statement, for what follows
    switch (plan.fault) {
      case FaultKind::kill: kill_push(plan, round, working, point); break;
      case FaultKind::lose_answer:
        heard = send(plan, round, storage(), working);
        ASSERT_EQ(heard->status, clean_status(plan)) << "the push whose answer is then lost";
        break;
      case FaultKind::cut:
        cut_trace.emplace(__FILE__, __LINE__,
                          cut_push(plan, round, *relayed, working, point).last_statement_line());
        break;
    }
    relayed.reset();  // the storage whose connection was cut is closed (a restart)
    if (HasFailure()) return;
    restart(plan.fault);
    check_after_fault(plan, round, heard, before, commits_before, outcome);
  }

  // untouched-before-commit (for a kill), whole-or-none, then applies-once or
  // replays, each where the plan claims it: what the database holds, and what
  // the same push answers.
  void check_after_fault(const FaultPlan& plan, int round,
                         const std::optional<push::PushAnswer>& heard, const std::string& before,
                         std::size_t commits_before, FaultPointOutcome& outcome) {
    const std::string& point = outcome.point;
    const auto [client_id, client_commit_id] = result_key(plan, round);
    const std::string after = commit_state();
    const bool touched = after != before;
    outcome.committed = touched;
    if (claims(plan, FaultCheck::untouched_before_commit) && plan.fault == FaultKind::kill &&
        precedes_the_commit(point)) {
      EXPECT_TRUE(after == before) << "killed at " << point
                                   << ", before the push could commit, the database changed:\n"
                                   << dump_difference(before, after);
    }
    const bool whole_or_none = claims(plan, FaultCheck::whole_or_none);
    if (heard && whole_or_none) {
      EXPECT_TRUE(touched) << "the push answered " << ::testing::PrintToString(*heard)
                           << ", but the database holds nothing of it";
    }
    const auto stored = storage().get_push_result("acme", client_id, client_commit_id);
    const auto log = commits();
    if (!whole_or_none) {
      // Nothing of what the database holds is judged.
    } else if (touched) {
      ASSERT_TRUE(stored.has_value())
          << "the database changed, but holds no stored result of the push: a commit whose "
             "result was not stored with it; what changed:\n"
          << dump_difference(before, after);
      if (rejected(plan)) {
        EXPECT_EQ(log.size(), commits_before) << "a rejection left a commit";
        expect_not_applied(plan, round);
      } else {
        ASSERT_EQ(log.size(), commits_before + 1)
            << "the database changed, but not by one commit:\n" << dump_difference(before, after);
        EXPECT_EQ(log.back().entry.client_commit_id, client_commit_id);
        EXPECT_EQ(log.back().entry.changes.size(), changes_of(plan, round));
        EXPECT_EQ(stored->commit_seq, std::optional<std::int64_t>(log.back().commit_seq))
            << "the stored result names another seq than the commit";
        expect_applied(plan, round);
      }
    } else {
      EXPECT_FALSE(stored.has_value()) << "nothing changed, yet a result is stored";
    }
    if (HasFailure()) return;

    // The client sends the same call again.
    const auto retry = send(plan, round, storage(), round_options(rejected(plan)));
    outcome.retry = ::testing::PrintToString(retry.status);
    if (!touched) {
      if (!claims(plan, FaultCheck::applies_once)) return;
      EXPECT_EQ(retry.status, clean_status(plan)) << "the push, sent again after nothing of it "
                                                     "was stored";
      EXPECT_EQ(commits().size(), commits_before + (rejected(plan) ? 0 : 1));
      if (!rejected(plan)) expect_applied(plan, round);
      EXPECT_TRUE(storage().get_push_result("acme", client_id, client_commit_id))
          << "the retry's result was not stored";
      return;
    }
    if (!claims(plan, FaultCheck::replays)) return;
    ASSERT_TRUE(stored.has_value()) << "the database changed, but holds no stored result to "
                                       "replay";
    if (rejected(plan)) {
      EXPECT_EQ(retry.status, PushAnswerStatus::rejected);
    } else {
      ASSERT_FALSE(log.empty()) << "the database changed, but its commit log is empty";
      EXPECT_EQ(retry.status, PushAnswerStatus::cached)
          << "the push had committed, so its retry must replay, not apply again";
      EXPECT_EQ(retry.commit_seq, std::optional<std::int64_t>(log.back().commit_seq))
          << "the replay names another seq than the commit's";
    }
    EXPECT_EQ(retry.results, stored->results) << "the replay's results are not the stored ones";
    if (heard) {
      EXPECT_EQ(retry.commit_seq, heard->commit_seq) << "the replay names another seq than the "
                                                        "answer that was lost";
      EXPECT_EQ(retry.results, heard->results);
    }
    EXPECT_EQ(commits().size(), log.size()) << "the retry of a committed push committed again";
    if (!rejected(plan)) expect_applied(plan, round);
  }

  std::optional<CapabilityGrant> hooks_;
  std::optional<CapabilityGrant> kill_;
  std::unique_ptr<PostgresRelay> relay_;  // cut plans only
  DatabaseLocation relayed_;
  int warmed_ = 0;  // connections warmed, for the warm-up rows' names
  int cuts_made_ = 0;  // points of the cut sweep where the relay did cut
};

// After the last test: docs/faults.md checked or written, as SSP_FAULTS_DOC asks.
class FaultsDocEnvironment final : public ::testing::Environment {
 public:
  void TearDown() override {
    if (const auto problem = settle_faults_doc(load_fault_plans(fault_plans_directory()))) {
      ADD_FAILURE() << *problem;
    }
  }
};
[[maybe_unused]] const auto* const kFaultsDoc =
    ::testing::AddGlobalTestEnvironment(new FaultsDocEnvironment);  // gtest owns it

// After the kill sweeps of FAULT-1 and FAULT-10, which it judges: the
// release notifies after its COMMIT (upstream's push.ts), so a process killed
// at a notification leaves the whole commit, and the retry replays it. FAULT-1
// accepts a push that left nothing at any point, which lets one that notifies
// before its COMMIT pass there; this is where it fails.
class NotificationKillJudge final : public PushFaults {
 public:
  explicit NotificationKillJudge(Backend backend) { made_for(backend); }
  void TestBody() override;
};

void NotificationKillJudge::TestBody() {
  record_spec("§6.4", "FAULT-15");
  int judged = 0;
  for (const FaultSweepRecord& sweep : FaultSweeps::of_this_run().all()) {
    if (sweep.backend != backend() ||
        (sweep.plan != "KillAppliedPush" && sweep.plan != "KillCommand")) {
      continue;
    }
    for (const FaultPointOutcome& outcome : sweep.points) {
      if (precedes_the_commit(outcome.point)) continue;
      ++judged;
      EXPECT_TRUE(outcome.committed)
          << sweep.plan << ": killed at " << outcome.point
          << ", a notification, yet a new process found nothing of the call stored: the "
             "candidate notifies before its COMMIT";
      EXPECT_EQ(outcome.retry, ::testing::PrintToString(PushAnswerStatus::cached))
          << sweep.plan << ": the retry after a kill at " << outcome.point;
    }
  }
  if (judged == 0) {
    GTEST_SKIP() << "no kill sweep of FAULT-1 or FAULT-10 reached a notification on this "
                    "backend in this run";
  }
}

// Last in the suite, so that the cut sweeps have run: the pushes and
// commands among them that never answered.
class PushSilenceJudge final : public PushFaults {
 public:
  explicit PushSilenceJudge(Backend backend) { made_for(backend); }
  void TestBody() override;
};

void PushSilenceJudge::TestBody() {
  record_spec("§6.4", "FAULT-13");
  const SilenceVerdict verdict =
      judge_silences({"cut_applied_push.plan", "cut_rejected_push.plan", "cut_command.plan"},
                     backend(), "FAULT-5, FAULT-6 and FAULT-12");
  if (verdict.skip) GTEST_SKIP() << *verdict.skip;
  if (verdict.failure) ADD_FAILURE() << *verdict.failure;
}

// The plans of push.run and command.run, then the judges of their sweeps.
[[maybe_unused]] const bool kPushPlansRegistered = defer_fault_plan_tests(
    "PushFaults", {"push.run", "command.run"},
    [](const FaultPlan& plan, Backend backend) -> ::testing::Test* {
      return new FaultPlanTest<PushFaults>(plan, backend);
    },
    {{"FAULT_15_AKillAtTheNotificationFindsTheCommitStoredAndReplaysIt",
      [](Backend backend) -> ::testing::Test* { return new NotificationKillJudge(backend); }},
     {"FAULT_13_AFaultedPushOrCommandNeverHangs",
      [](Backend backend) -> ::testing::Test* { return new PushSilenceJudge(backend); }}});

}  // namespace
}  // namespace ssp::harness
