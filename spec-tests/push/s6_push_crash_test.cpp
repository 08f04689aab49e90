// A push that dies part-way leaves no trace (SSP2 §6.4; design notes push.md
// §1.1 steps 11–15): the database refuses the push's row writes after the
// first k, for every k until the push needs no more, and the whole database
// must then be as it was before the push, and the same push must apply (or be
// rejected) once the database works again. Writes are counted across every
// table, so each boundary between the statements of a push is a crash point:
// the partition lock's insert, the staged rows and their scopes, the commit
// and its changes, the stored result, and, for a rejection, its persistence
// after the rollback. That is §6.4's MUST; seqs are compared only as rising
// (their numbering is PUSH-1's), and what the failure says is ours
// (PUSH-CRASH-1-REF).
#include <gmock/gmock.h>

#include "harness/fixtures/push_rounds.hpp"
#include "harness/gates/granted_options.hpp"

namespace ssp::harness {
namespace {

using push::PushAnswerStatus;
using push::PushHookPoint;

// More writes than any push of these tests needs: a run that reaches it has
// not finished the push with every write allowed.
constexpr int kMaxWrites = 200;

class PushCrash : public PushRoundTest {
 protected:
  // Stores the rows of rounds 0…kMaxWrites.
  void seed_rounds() { PushRoundTest::seed_rounds(0, kMaxWrites); }

  // The same push, run again after a failed try (which left the database as
  // it was), with the database working: a rejection is rejected again; an
  // applied push takes a seq above `last_seq`, which then becomes its seq.
  void expect_runs_again(const push::PushCommit& pushed, const push::PushOptions& working,
                         bool applies, std::int64_t& last_seq) {
    const auto answer = push(pushed, working);
    if (!applies) {
      EXPECT_EQ(answer.status, PushAnswerStatus::rejected);
      return;
    }
    EXPECT_EQ(answer.status, PushAnswerStatus::applied);
    EXPECT_GT(answer.commit_seq.value_or(0), last_seq);
    last_seq = answer.commit_seq.value_or(last_seq);
  }

  // Pushes `commit` with the database failing after `writes` row writes.
  // Returns the answer when the push completed, nothing when it threw: then
  // the database must be exactly as before.
  std::optional<push::PushAnswer> push_failing_after(int writes, const push::PushCommit& commit,
                                                     const push::PushOptions& options) {
    const std::string before = database().dump_all_tables();
    database().inject_write_failure(writes);
    std::optional<push::PushAnswer> answer;
    last_failure_.clear();
    try {
      answer = push(commit, options);
    } catch (const std::exception& error) {
      last_failure_ = error.what();  // PUSH-CRASH-1-REF reads it
    }
    database().clear_injected_failures();
    if (!answer) {
      EXPECT_EQ(database().dump_all_tables(), before) << "a failed push left a trace";
    }
    return answer;
  }

  // What the last push of push_failing_after threw, "" when it threw nothing.
  std::string last_failure_;
};
SSP_SQL_BACKENDS(PushCrash);

TEST_P(PushCrash, PUSH_CRASH_1_AnAppliedPushCutAfterAnyWriteLeavesNoTraceAndAppliesAgain) {
  record_spec("§6.4", "PUSH-CRASH-1");
  seed_rounds();
  if (HasFatalFailure()) return;
  const std::size_t seeded = commits().size();
  std::int64_t last_seq = max_seq();
  for (int writes = 0; writes <= kMaxWrites; ++writes) {
    SCOPED_TRACE("the database fails after " + std::to_string(writes) + " row writes");
    const push::PushCommit pushed = round_commit(writes, false);
    const auto answer = push_failing_after(writes, pushed, options());
    std::int64_t seq = 0;
    if (answer) {
      // Every write was allowed: the push is complete, not cut short. It
      // writes four rows at least, so fewer allowed writes must have failed
      // it: else the injected failure never reached its writes.
      EXPECT_GE(writes, 4) << "the push completed with fewer row writes than its rows";
      RecordProperty("row_writes_of_the_push", writes);
      EXPECT_EQ(answer->status, PushAnswerStatus::applied);
      seq = answer->commit_seq.value_or(0);
    } else {
      // The database works again: the same push applies.
      seq = apply(pushed);
    }
    EXPECT_GT(seq, last_seq) << "the push's seq is not above the partition's last";
    last_seq = seq;
    if (HasFailure()) return;  // one round's report is enough to debug
    expect_round_applied(writes);
    ASSERT_EQ(commits().size(), seeded + static_cast<std::size_t>(writes) + 1);
    EXPECT_EQ(commits().back().entry.changes.size(), 4u);
    if (answer) return;
  }
  FAIL() << "the push was still failing after " << kMaxWrites << " row writes";
}

TEST_P(PushCrash, PUSH_CRASH_2_ARejectionCutAfterAnyWriteLeavesNoTraceAndIsStoredAgain) {
  record_spec("§6.4", "PUSH-CRASH-2");
  seed_rounds();
  if (HasFatalFailure()) return;
  const std::size_t seeded = commits().size();
  const push::PushOptions refusing = refusing_options();
  for (int writes = 0; writes <= kMaxWrites; ++writes) {
    SCOPED_TRACE("the database fails after " + std::to_string(writes) + " row writes");
    const push::PushCommit pushed = round_commit(writes, true);
    auto answer = push_failing_after(writes, pushed, refusing);
    const bool completed = answer.has_value();
    if (completed) {
      // The rejection itself is a row written: with none allowed it fails.
      EXPECT_GE(writes, 1) << "the rejection was stored with no row write allowed";
      RecordProperty("row_writes_of_the_push", writes);
    }
    // The database works again: the same push is rejected and stored.
    if (!completed) answer = push(pushed, refusing);
    EXPECT_EQ(answer->status, PushAnswerStatus::rejected);
    ASSERT_EQ(answer->results.size(), 1u);
    EXPECT_EQ(answer->results[0].code, "test.refused");
    // Stored (§2.3), and a repeat replays it; nothing else was written.
    const auto stored = storage().get_push_result("acme", "client-1", pushed.client_commit_id);
    EXPECT_TRUE(stored.has_value()) << "the rejection was not stored";
    const auto replay = push(pushed, refusing);
    EXPECT_EQ(replay.status, PushAnswerStatus::rejected);
    EXPECT_EQ(replay.results, answer->results);
    EXPECT_EQ(commits().size(), seeded);
    expect_round_not_applied(writes);
    if (HasFailure() || completed) return;
  }
  FAIL() << "the push was still failing after " << kMaxWrites << " row writes";
}

// The points a push fails at when a hook callback fails there: each read
// (H0 after the lookup outside the transaction, H3 after the recheck under
// the lock), right after the lock and its SAVEPOINT (H2), between the staged
// writes and the commit (H4, H5), and just before COMMIT (H6), on the applied
// path and on the rejection path (which does not pass H4 and H5).
TEST_P(PushCrash, PUSH_CRASH_3_AFailureAtAnyHookPointLeavesNoTraceAndThePushRunsAgain) {
  record_spec("§6.4", "PUSH-CRASH-3");
  SSP_GRANT_CAPABILITY(push_hooks, candidate(), Capability::push_hooks);
  seed_rounds();
  if (HasFatalFailure()) return;
  std::int64_t last_seq = max_seq();
  int round = 0;
  for (const bool rejected : {false, true}) {
    for (int p = 0; p <= static_cast<int>(PushHookPoint::before_commit); ++p) {
      const auto point = static_cast<PushHookPoint>(p);
      const bool passes = !rejected || (point != PushHookPoint::after_operations &&
                                        point != PushHookPoint::before_append_commit);
      if (!passes) continue;
      const std::string name(push::push_hook_point_name(point));
      SCOPED_TRACE(std::string(rejected ? "a rejection" : "an applied push") + " failing at " + name);
      const push::PushCommit pushed = round_commit(round++, rejected);
      const push::PushOptions working = round_options(rejected);
      push::PushOptions failing = working;
      install_push_hook(push_hooks, failing, [point, name](PushHookPoint reached) {
        if (reached == point) throw std::runtime_error("failure injected at " + name);
      });
      const std::string before = database().dump_all_tables();
      EXPECT_THROW(push(pushed, failing), std::runtime_error);
      EXPECT_EQ(database().dump_all_tables(), before) << "the failed push left a trace";
      expect_runs_again(pushed, working, !rejected, last_seq);
      if (HasFailure()) return;
    }
  }
}

// The COMMIT itself fails (a deferred check the database runs at COMMIT),
// after every statement of the push succeeded, on the applied path and on
// the rejection path.
TEST_P(PushCrash, PUSH_CRASH_4_APushWhoseCommitFailsLeavesNoTraceAndRunsAgain) {
  record_spec("§6.4", "PUSH-CRASH-4");
  seed_rounds();
  if (HasFatalFailure()) return;
  std::int64_t last_seq = max_seq();
  for (const bool rejected : {false, true}) {
    SCOPED_TRACE(rejected ? "a rejection" : "an applied push");
    const push::PushCommit pushed = round_commit(rejected ? 1 : 0, rejected);
    const push::PushOptions working = round_options(rejected);
    const std::string before = database().dump_all_tables();
    if (!database().inject_commit_failure()) {
      GTEST_SKIP() << "this backend cannot fail a COMMIT from outside the candidate's connection "
                      "(SQLite has no deferred trigger)";
    }
    EXPECT_THROW(push(pushed, working), StorageError);
    database().clear_injected_failures();
    EXPECT_EQ(database().dump_all_tables(), before) << "the push whose COMMIT failed left a trace";
    expect_runs_again(pushed, working, !rejected, last_seq);
  }
}

// A push the database failed throws an error that says something (decision
// "error messages"): SSP2 pins no text for a failure that is not the push's
// answer, but a message that says nothing cannot be traced to the push in an
// operator's log.
TEST_P(PushCrash, PUSH_CRASH_1_REF_AFailedPushThrowsAMessageThatSaysSomething) {
  record_spec("§6.4", "PUSH-CRASH-1-REF");
  // No row write allowed: the push fails at its first.
  const auto answer = push_failing_after(0, round_commit(0, false), options());
  ASSERT_FALSE(answer.has_value()) << "the push completed without a row write";
  EXPECT_NE(last_failure_, "") << "the failed push threw an empty message";
}

}  // namespace
}  // namespace ssp::harness
