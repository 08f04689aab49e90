// The commit log a push writes (SSP2 §2.1, §6.4; design notes push.md §1.2,
// §1.3, §6.1 items 1–2). §2.1 asks only that seqs be at least 1 and rise per
// partition: the tests of PUSH-1 and PUSH-2 assert that much, and their -REL
// twins the gap-free numbering of the 0.22 release (its counter row is
// updated in the push's transaction, so a rollback takes its number back).
#include <gmock/gmock.h>

#include <functional>
#include <optional>
#include <utility>

#include "harness/fixtures/push_fixtures.hpp"
#include "harness/gates/granted_options.hpp"

namespace ssp::harness {
namespace {

using push::PushAnswerStatus;
using push::PushHookPoint;

class PushLog : public PushTest {
 protected:
  // The deliveries of PUSH-2, after a seed commit: a conflict, a refusal, a
  // validator's rejection, a constraint violation, a cache miss (where the
  // test can edit upstream's tables), and, where the candidate parks at hook
  // points, a failure that is not the push's and a crash just before COMMIT;
  // none of them may apply. `after_each` runs after each with its key. Then
  // the two that failed are pushed again on a working database and must
  // apply: returns their seqs (0 for one that did not apply), or nothing
  // without hook points.
  std::optional<std::pair<std::int64_t, std::int64_t>> deliver_what_must_not_apply(
      const std::optional<CapabilityGrant>& push_hooks,
      const std::function<void(const std::string&)>& after_each);
};
SSP_SQL_BACKENDS(PushLog);

std::optional<std::pair<std::int64_t, std::int64_t>> PushLog::deliver_what_must_not_apply(
    const std::optional<CapabilityGrant>& push_hooks,
    const std::function<void(const std::string&)>& after_each) {
  // §6.4 MUST#1 asks that none of them apply, not how each is answered (the
  // answers are PUSH-3's, PUSH-7's, …): a rejection, or a server error.
  const auto rejected = [&](const push::PushCommit& commit, const push::PushActor& who,
                            const push::PushOptions& options) {
    try {
      const auto answer = push(commit, who, options);
      EXPECT_EQ(answer.status, PushAnswerStatus::rejected)
          << commit.client_commit_id << ": " << ::testing::PrintToString(answer);
      EXPECT_FALSE(answer.commit_seq);
    } catch (const StorageError&) {
    }
    after_each(commit.client_commit_id);
  };
  // A conflict, a refusal, a validator rejection, a constraint violation.
  rejected(commit("conflict", {upsert("tasks", "t1", task("t1", "p1", "b"), 7)}), actor(),
           options());
  rejected(commit("forbidden", {upsert("tasks", "t2", task("t2", "p9"))}),
           actor(ScopeMap{{"project_id", {"p1"}}}), options());
  auto validating = options();
  validating.row_validators["tasks"] = [](const push::RowValidation&) {
    throw push::ValidationRejection("test.refused", "no");
  };
  rejected(commit("validator", {upsert("tasks", "t3", task("t3", "p1"))}), actor(), validating);
  rejected(commit("constraint", {upsert("members", "m2", member("m2", "o1", "a@x"))}), actor(),
           options());
  // A cache miss: the stored rejection of "conflict" made unreadable, where
  // the test can edit upstream's table.
  if (const auto tables = optional_grant(candidate(), Capability::upstream_tables)) {
    database().exec(
        "UPDATE sync_push_results SET result = '{\"status\":1}' WHERE client_commit_id = "
        "'conflict'");
    rejected(commit("conflict", {upsert("tasks", "t1", task("t1", "p1", "b"), 7)}), actor(),
             options());
  }
  if (!push_hooks) return std::nullopt;
  // A failure that is not the push's: nothing stored, nothing applied.
  auto failing = options();
  install_push_hook(*push_hooks, failing, [](PushHookPoint point) {
    if (point == PushHookPoint::after_operations) throw std::runtime_error("planner failed");
  });
  EXPECT_THROW(push(commit("failing", {upsert("tasks", "t4", task("t4", "p1"))}), failing),
               std::runtime_error);
  after_each("failing");
  // A push cut just before its COMMIT.
  auto late = options();
  install_push_hook(*push_hooks, late, [](PushHookPoint point) {
    if (point == PushHookPoint::before_commit) throw std::runtime_error("crash before commit");
  });
  EXPECT_THROW(push(commit("late", {upsert("tasks", "t5", task("t5", "p1"))}), late),
               std::runtime_error);
  after_each("late");
  EXPECT_FALSE(row("tasks", "t5"));
  const std::int64_t failing_seq =
      apply(commit("failing", {upsert("tasks", "t4", task("t4", "p1"))}));
  const std::int64_t late_seq = apply(commit("late", {upsert("tasks", "t5", task("t5", "p1"))}));
  return std::pair{failing_seq, late_seq};
}

TEST_P(PushLog, PUSH_1_SequenceStartsAtOneAndAddsOnePerAppliedCommitPerPartition) {
  record_spec("§2.1", "PUSH-1");
  // Seqs of at least 1, rising per partition; the values 1, 2, 3 are PUSH-1-REL's.
  EXPECT_EQ(max_seq(), 0);
  const std::int64_t first = apply(commit("k1", {upsert("tasks", "t1", task("t1", "p1", "a"))}));
  const std::int64_t second = apply(commit("k2", {upsert("tasks", "t2", task("t2", "p1", "b"))}));
  EXPECT_GE(first, 1);
  EXPECT_GT(second, first);
  // Another partition's commits are its own.
  const auto other = push(commit("k1", {upsert("tasks", "t1", task("t1", "p1", "c"))}),
                          actor(all_scopes(), "other"), options());
  EXPECT_EQ(other.status, PushAnswerStatus::applied);
  EXPECT_GE(other.commit_seq.value_or(0), 1);
  const std::int64_t third = apply(commit("k3", {remove("tasks", "t1")}));
  EXPECT_GT(third, second);
  EXPECT_EQ(max_seq(), third);
  EXPECT_EQ(max_seq("other"), other.commit_seq.value_or(0));

  const auto log = commits();
  ASSERT_EQ(log.size(), 3u);
  const std::int64_t seqs[] = {first, second, third};
  for (std::size_t i = 0; i < log.size(); ++i) {
    SCOPED_TRACE("commit " + std::to_string(i + 1));
    EXPECT_EQ(log[i].commit_seq, seqs[i]);
    EXPECT_EQ(log[i].entry.client_id, "client-1");
    EXPECT_EQ(log[i].entry.client_commit_id, "k" + std::to_string(i + 1));
    EXPECT_EQ(log[i].entry.actor_id, "user-1");
    ASSERT_EQ(log[i].entry.changes.size(), 1u);
  }
  // The clock starts at 1000 and is read once per push that ran the pipeline.
  EXPECT_EQ(log[0].entry.created_at_ms, 1000);
  EXPECT_EQ(log[1].entry.created_at_ms, 1001);
  EXPECT_EQ(log[2].entry.created_at_ms, 1003);
  const storage::Change& insert = log[0].entry.changes[0];
  EXPECT_EQ(insert.table, "tasks");
  EXPECT_EQ(insert.row_id, "t1");
  EXPECT_EQ(insert.op, storage::ChangeOp::upsert);
  EXPECT_EQ(insert.row_version, std::optional<std::int64_t>(1));
  EXPECT_EQ(insert.scopes, (std::map<std::string, std::string>{{"project_id", "p1"}}));
  EXPECT_EQ(insert.payload, std::optional<storage::Bytes>(task("t1", "p1", "a")));
  const storage::Change& deletion = log[2].entry.changes[0];
  EXPECT_EQ(deletion.op, storage::ChangeOp::remove);
  EXPECT_EQ(deletion.row_id, "t1");
  EXPECT_FALSE(deletion.row_version);
  EXPECT_FALSE(deletion.payload);
  EXPECT_EQ(deletion.scopes, (std::map<std::string, std::string>{{"project_id", "p1"}}));
}

// The release's numbering: 1, 2, 3 per partition.
TEST_P(PushLog, PUSH_1_REL_SeqsRunOneTwoThreeInEachPartition) {
  record_spec("§2.1", "PUSH-1-REL");
  EXPECT_EQ(apply(commit("k1", {upsert("tasks", "t1", task("t1", "p1", "a"))})), 1);
  EXPECT_EQ(apply(commit("k2", {upsert("tasks", "t2", task("t2", "p1", "b"))})), 2);
  const auto other = push(commit("k1", {upsert("tasks", "t1", task("t1", "p1", "c"))}),
                          actor(all_scopes(), "other"), options());
  EXPECT_EQ(other.commit_seq, std::optional<std::int64_t>(1));
  EXPECT_EQ(apply(commit("k3", {remove("tasks", "t1")})), 3);
  EXPECT_EQ(max_seq(), 3);
  EXPECT_EQ(max_seq("other"), 1);
}

TEST_P(PushLog, PUSH_2_RejectedConflictingFailingAndCacheMissDeliveriesAllocateNothing) {
  record_spec("§2.1", "PUSH-2");
  // The failures are injected at hook points, where the candidate has them;
  // the rejections need none.
  const auto push_hooks = optional_grant(candidate(), Capability::push_hooks);
  const std::int64_t seed =
      apply(commit("k1", {upsert("tasks", "t1", task("t1", "p1", "a")),
                          upsert("members", "m1", member("m1", "o1", "a@x"))}));
  ASSERT_GT(seed, 0);
  // None of them leaves a commit in the log (§6.4).
  const auto reapplied = deliver_what_must_not_apply(push_hooks, [&](const std::string& key) {
    EXPECT_EQ(commits().size(), 1u) << key;
  });
  if (!reapplied) {
    EXPECT_EQ(commits().size(), 1u);
    return;
  }
  const auto [failing, late] = *reapplied;
  EXPECT_GT(failing, seed);
  EXPECT_GT(late, failing);
  EXPECT_EQ(commits().size(), 3u);
}

// The release's numbering: what did not apply took no number, and a
// rolled-back append's number is the next applied commit's.
TEST_P(PushLog, PUSH_2_REL_WhatDidNotApplyTookNoNumberAndARolledBackNumberIsReused) {
  record_spec("§2.1", "PUSH-2-REL");
  SSP_GRANT_CAPABILITY(push_hooks, candidate(), Capability::push_hooks);
  ASSERT_EQ(apply(commit("k1", {upsert("tasks", "t1", task("t1", "p1", "a")),
                                upsert("members", "m1", member("m1", "o1", "a@x"))})),
            1);
  const auto reapplied = deliver_what_must_not_apply(push_hooks, [&](const std::string& key) {
    EXPECT_EQ(max_seq(), 1) << key;
  });
  ASSERT_TRUE(reapplied);
  EXPECT_EQ(reapplied->first, 2);
  EXPECT_EQ(reapplied->second, 3);
}

}  // namespace
}  // namespace ssp::harness
