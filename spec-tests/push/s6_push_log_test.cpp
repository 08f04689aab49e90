// The commit log a push writes (SSP2 §2.1, §6.4; design notes push.md §1.2,
// §1.3, §6.1 items 1–2).
#include <gmock/gmock.h>

#include "harness/fixtures/push_fixtures.hpp"
#include "harness/gates/granted_options.hpp"

namespace ssp::harness {
namespace {

using push::PushAnswerStatus;
using push::PushHookPoint;

class PushLog : public PushTest {};
SSP_SQL_BACKENDS(PushLog);

TEST_P(PushLog, PUSH_1_SequenceStartsAtOneAndAddsOnePerAppliedCommitPerPartition) {
  record_spec("§2.1", "PUSH-1");
  EXPECT_EQ(max_seq(), 0);
  EXPECT_EQ(apply(commit("k1", {upsert("tasks", "t1", task("t1", "p1", "a"))})), 1);
  EXPECT_EQ(apply(commit("k2", {upsert("tasks", "t2", task("t2", "p1", "b"))})), 2);
  // Another partition has a counter of its own.
  const auto other = push(commit("k1", {upsert("tasks", "t1", task("t1", "p1", "c"))}),
                          actor(all_scopes(), "other"), options());
  EXPECT_EQ(other.status, PushAnswerStatus::applied);
  EXPECT_EQ(other.commit_seq, std::optional<std::int64_t>(1));
  EXPECT_EQ(apply(commit("k3", {remove("tasks", "t1")})), 3);
  EXPECT_EQ(max_seq(), 3);
  EXPECT_EQ(max_seq("other"), 1);

  const auto log = commits();
  ASSERT_EQ(log.size(), 3u);
  for (std::size_t i = 0; i < log.size(); ++i) {
    SCOPED_TRACE("commit " + std::to_string(i + 1));
    EXPECT_EQ(log[i].commit_seq, static_cast<std::int64_t>(i + 1));
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

TEST_P(PushLog, PUSH_2_RejectedConflictingFailingAndCacheMissDeliveriesAllocateNothing) {
  record_spec("§2.1", "PUSH-2");
  // The failures are injected at hook points.
  SSP_GRANT_CAPABILITY(push_hooks, candidate(), Capability::push_hooks);
  ASSERT_EQ(apply(commit("k1", {upsert("tasks", "t1", task("t1", "p1", "a")),
                                upsert("members", "m1", member("m1", "o1", "a@x"))})),
            1);
  const auto rejected = [&](const push::PushCommit& commit, const push::PushActor& who,
                            const push::PushOptions& options) {
    const auto answer = push(commit, who, options);
    EXPECT_EQ(answer.status, PushAnswerStatus::rejected)
        << commit.client_commit_id << ": " << ::testing::PrintToString(answer);
    EXPECT_FALSE(answer.commit_seq);
    EXPECT_EQ(max_seq(), 1) << commit.client_commit_id;
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
  // A cache miss: the stored rejection of "conflict" made unreadable.
  database().exec(
      "UPDATE sync_push_results SET result = '{\"status\":1}' WHERE client_commit_id = "
      "'conflict'");
  rejected(commit("conflict", {upsert("tasks", "t1", task("t1", "p1", "b"), 7)}), actor(),
           options());
  // A failure that is not the push's: nothing stored, nothing allocated.
  auto failing = options();
  install_push_hook(push_hooks, failing, [](PushHookPoint point) {
    if (point == PushHookPoint::after_operations) throw std::runtime_error("planner failed");
  });
  EXPECT_THROW(push(commit("failing", {upsert("tasks", "t4", task("t4", "p1"))}), failing),
               std::runtime_error);
  EXPECT_EQ(max_seq(), 1);
  // A rolled-back append: its sequence number is the next applied commit's.
  auto late = options();
  install_push_hook(push_hooks, late, [](PushHookPoint point) {
    if (point == PushHookPoint::before_commit) throw std::runtime_error("crash before commit");
  });
  EXPECT_THROW(push(commit("late", {upsert("tasks", "t5", task("t5", "p1"))}), late),
               std::runtime_error);
  EXPECT_EQ(max_seq(), 1);
  EXPECT_FALSE(row("tasks", "t5"));
  EXPECT_EQ(apply(commit("failing", {upsert("tasks", "t4", task("t4", "p1"))})), 2);
  EXPECT_EQ(apply(commit("late", {upsert("tasks", "t5", task("t5", "p1"))})), 3);
  EXPECT_EQ(commits().size(), 3u);
}

}  // namespace
}  // namespace ssp::harness
