// PUSH_RESULT shapes, idempotent replay and the cache miss (SSP2 §2.3, §6.3;
// design notes push.md §1.4, §5, §6.1 items 5 and 8). §6.3's one keyword is
// that the cache-miss answer is never persisted (PUSH-8); the answer's
// encoding and the result shapes are stated without one (PUSH-8-REL, PUSH-5).
#include <gmock/gmock.h>

#include <future>
#include <tuple>
#include <utility>

#include "harness/fixtures/push_fixtures.hpp"
#include "harness/fixtures/push_storage_fixtures.hpp"
#include "harness/gates/granted_options.hpp"
#include "harness/util/eventually.hpp"
#include "harness/util/require_found.hpp"

namespace ssp::harness {
namespace {

using push::OperationStatus;
using push::PushAnswerStatus;
using push::PushHookPoint;

class PushResults : public PushTest {
 protected:
  // Pushes `commit` on a storage of its own while trusted code holds the
  // partition (a raw transaction that took the push lock); runs `meanwhile`
  // once the database shows the push waiting, then lets the partition go.
  // Returns the push's answer, or nothing after a failure. PostgreSQL only:
  // its sessions show who waits.
  std::optional<push::PushAnswer> push_behind_the_partition_lock(
      const push::PushCommit& commit, const std::function<void()>& meanwhile) {
    DatabaseLocation named = database().location();
    const std::string pusher_name = named.pg_schema + "/pusher";
    named.pg_dsn += " application_name=" + pusher_name;
    const auto pusher =
        require_opened(candidate().open_server_storage(named, {}), "server storage");
    pusher->ensure_schema(schema());
    const auto holder_storage = open();
    const auto holder = holder_storage->begin("acme");
    if (holder == nullptr) {
      ADD_FAILURE() << "begin returned no transaction";
      return std::nullopt;
    }
    holder->lock_partition_for_push();
    std::optional<push::PushAnswer> answer;
    const push::PushOptions pushing_options = options();
    Background pushing([&] {
      answer = candidate().push().push(*pusher, schema(), actor(), commit, pushing_options);
    });
    const bool waiting = eventually(
        [&] { return pushing.done() || database().shows_sessions_waiting({pusher_name}); },
        kWatchdog);
    if (pushing.done()) {
      holder->rollback();
      ADD_FAILURE() << "the push answered while trusted code held its partition (§6.8)";
    } else {
      EXPECT_TRUE(waiting) << "the database never showed the push waiting for the partition";
      meanwhile();
      holder->rollback();
    }
    if (!pushing.finish()) {
      ADD_FAILURE() << "the push did not end once the partition was free";
      return std::nullopt;
    }
    return answer;
  }

  // The stored result text of `client_commit_id`, as upstream's table holds it.
  std::vector<std::string> stored_text(const CapabilityGrant& upstream_tables,
                                       const std::string& client_commit_id) {
    upstream_tables.require(Capability::upstream_tables);
    return database().query_column(
        "SELECT result FROM sync_push_results WHERE client_commit_id = '" + client_commit_id +
        "'");
  }
  const push::OperationResult cache_miss_ =
      error_at(0, "sync.idempotency_cache_miss", "persisted push result unreadable (§6.3)", true);
};
SSP_SQL_BACKENDS(PushResults);

TEST_P(PushResults, PUSH_5_AppliedCarriesARecordPerOperationRejectedExactlyOne) {
  record_spec("§6.3", "PUSH-5");
  const auto applied = push(commit("k1", {upsert("tasks", "t1", task("t1", "p1")),
                                          upsert("tasks", "t2", task("t2", "p1")),
                                          remove("tasks", "t9")}));
  EXPECT_EQ(applied.status, PushAnswerStatus::applied);
  EXPECT_TRUE(applied.commit_seq.has_value());
  ASSERT_EQ(applied.results.size(), 3u);
  for (std::int64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(applied.results[i].op_index, i);
    EXPECT_EQ(applied.results[i].status, OperationStatus::applied);
  }
  const auto rejected = push(commit("k2", {upsert("tasks", "t3", task("t3", "p1")),
                                           upsert("tasks", "t1", task("t1", "p1"), 0),
                                           upsert("tasks", "t4", task("t4", "p1"))}));
  EXPECT_EQ(rejected.status, PushAnswerStatus::rejected);
  EXPECT_FALSE(rejected.commit_seq);
  ASSERT_EQ(rejected.results.size(), 1u);
  EXPECT_EQ(rejected.results[0].op_index, 1);
  EXPECT_EQ(rejected.results[0].status, OperationStatus::conflict);
  EXPECT_FALSE(row("tasks", "t4"));  // never attempted
}

// The release notifies after its COMMIT (upstream's push.ts; decisions.md,
// Q7): a read from inside the notifier, through the candidate's storage on
// another thread, finds the commit it is told of. A candidate that notifies
// before its COMMIT (still holding the partition) shows the partition at the
// seq before, or keeps the read waiting until the notifier gives up.
TEST_P(PushResults, PUSH_NOTIFY_1_AReadFromInsideTheNotifierFindsTheCommitItIsToldOf) {
  record_spec("§6.4", "PUSH-NOTIFY-1");
  std::optional<std::int64_t> told;
  std::optional<std::int64_t> max_seq_inside;
  std::optional<bool> row_inside;
  auto notifying = options();
  notifying.notify = [&](const push::CommitNotification& notification) {
    told = notification.commit_seq;
    auto reading = std::async(std::launch::async, [&] {
      return std::pair{storage().get_max_commit_seq("acme"),
                       storage().get_row("acme", "tasks", "t1").has_value()};
    });
    if (reading.wait_for(kWatchdog) != std::future_status::ready) return;
    std::tie(max_seq_inside, row_inside) = reading.get();
  };
  const auto answer = push(commit("k1", {upsert("tasks", "t1", task("t1", "p1"))}), notifying);
  ASSERT_EQ(answer.status, PushAnswerStatus::applied) << ::testing::PrintToString(answer);
  ASSERT_TRUE(told.has_value()) << "the notifier was never called for an applied commit";
  EXPECT_EQ(told, answer.commit_seq) << "the notification names another seq than the answer";
  ASSERT_TRUE(max_seq_inside.has_value())
      << "a read from inside the notifier never answered: the notifier runs while the push "
         "holds what the read needs";
  EXPECT_EQ(max_seq_inside, told)
      << "inside the notifier, the partition's max commit seq is not the commit it is told of: "
         "the candidate notifies before its COMMIT";
  EXPECT_EQ(row_inside, std::optional<bool>(true)) << "inside the notifier, the row is not there";
}

TEST_P(PushResults, PUSH_5_ARepeatedCommitIdReplaysWithoutRunningAgain) {
  record_spec("§2.3", "PUSH-5");
  int validations = 0;
  int commit_validations = 0;
  int notifications = 0;
  auto counting = options();
  counting.row_validators["tasks"] = [&](const push::RowValidation& op) {
    ++validations;
    if (op.row_id == "bad") throw push::ValidationRejection("test.bad", "bad row");
  };
  counting.commit_validator = [&](const push::CommitValidation&) { ++commit_validations; };
  counting.notify = [&](const push::CommitNotification&) { ++notifications; };

  const auto good = commit("k1", {upsert("tasks", "t1", task("t1", "p1"))});
  const auto first = push(good, counting);
  const auto second = push(good, counting);
  EXPECT_EQ(first.status, PushAnswerStatus::applied);
  EXPECT_EQ(second.status, PushAnswerStatus::cached);
  EXPECT_EQ(second.commit_seq, first.commit_seq);
  EXPECT_EQ(second.results, first.results);
  EXPECT_EQ(validations, 1);
  EXPECT_EQ(commit_validations, 1);
  EXPECT_EQ(notifications, 1);

  const auto bad = commit("k2", {upsert("tasks", "bad", task("bad", "p1"))});
  const auto refused = push(bad, counting);
  const auto again = push(bad, counting);
  EXPECT_EQ(refused.status, PushAnswerStatus::rejected);
  EXPECT_EQ(again.status, PushAnswerStatus::rejected);
  EXPECT_FALSE(again.commit_seq);
  EXPECT_EQ(again.results, refused.results);
  EXPECT_FALSE(refused.replayed);
  EXPECT_TRUE(again.replayed);
  EXPECT_EQ(validations, 2);
  EXPECT_EQ(commits().size(), 1u);
  // The key is the pair (clientId, clientCommitId): another client's k1 is new.
  const auto other_client = push(commit("k1", {upsert("tasks", "t2", task("t2", "p1"))}, "c2"));
  EXPECT_EQ(other_client.status, PushAnswerStatus::applied);
  EXPECT_GT(other_client.commit_seq.value_or(0), first.commit_seq.value_or(0));
}

TEST_P(PushResults, PUSH_8_AnUnreadableStoredResultIsARetryableCacheMissNeverStored) {
  record_spec("§6.3", "PUSH-8");
  // An unreadable result can only be made by editing upstream's table.
  SSP_GRANT_CAPABILITY(tables, candidate(), Capability::upstream_tables);
  const auto the_commit = commit("k1", {upsert("tasks", "t1", task("t1", "p1", "a"))});
  ASSERT_GT(apply(the_commit), 0);
  database().exec("UPDATE sync_push_results SET result = '{\"results\":3}'");
  const auto before = stored_text(tables, "k1");
  int validations = 0;
  auto counting = options();
  counting.row_validators["tasks"] = [&](const push::RowValidation&) { ++validations; };
  const auto answer = push(commit("k1", {upsert("tasks", "t1", task("t1", "p1", "b"))}), counting);
  EXPECT_EQ(answer.status, PushAnswerStatus::rejected);
  EXPECT_FALSE(answer.commit_seq);
  ASSERT_EQ(answer.results.size(), 1u);
  EXPECT_EQ(answer.results[0].code, "sync.idempotency_cache_miss");
  EXPECT_EQ(validations, 0);
  // Not persisted (§6.3): the stored text is as it was.
  EXPECT_EQ(stored_text(tables, "k1"), before);
  EXPECT_EQ(payload_of("tasks", "t1"), std::optional<storage::Bytes>(task("t1", "p1", "a")));
  EXPECT_EQ(commits().size(), 1u);
}

// The answer's encoding (§6.3, without a keyword: one retryable error at
// operation 0) and upstream's message.
TEST_P(PushResults, PUSH_8_REL_TheCacheMissIsOneRetryableErrorAtOperationZero) {
  record_spec("§6.3", "PUSH-8-REL");
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::upstream_tables);
  const auto the_commit = commit("k1", {upsert("tasks", "t1", task("t1", "p1", "a"))});
  ASSERT_GT(apply(the_commit), 0);
  database().exec("UPDATE sync_push_results SET result = '{\"results\":3}'");
  const auto answer = push(the_commit);
  EXPECT_EQ(answer.status, PushAnswerStatus::rejected);
  EXPECT_THAT(answer.results, ::testing::ElementsAre(cache_miss_));
}

// After the optimistic lookup missed, an unreadable result appears under the
// key before the push takes the lock: only the recheck under the lock can see
// it. On PostgreSQL, without hooks: trusted code holds the partition (a raw
// transaction that took the push lock), the database shows the push waiting
// for it, and the unreadable result is committed meanwhile on another
// connection. SQLite's one writer would keep that insert out as well, so
// there the push parks at H0 instead, and only a candidate with hook points
// runs it.
TEST_P(PushResults, PUSH_8_TheLockedRecheckAnswersTheCacheMissToo) {
  record_spec("§6.3", "PUSH-8");
  SSP_GRANT_CAPABILITY(tables, candidate(), Capability::upstream_tables);
  const auto the_commit = commit("k1", {upsert("tasks", "t1", task("t1", "p1"))});
  // Unreadable as the sibling test's is (results not an array): SSP2 leaves
  // what a server can read to the server. An applied result without a
  // commitSeq, which upstream reads and replays as `cached` (its real bug 3,
  // docs/findings/syncular.md), is D-4's, at the release's level.
  const auto write_unreadable_result = [&] {
    database().exec(
        "INSERT INTO sync_push_results (partition, client_id, client_commit_id, result) VALUES "
        "('acme', 'client-1', 'k1', '{\"results\":3}')");
  };
  std::optional<push::PushAnswer> answer;
  if (backend() == Backend::postgres) {
    SSP_REQUIRE_CAPABILITY(candidate(), Capability::transactions);
    answer = push_behind_the_partition_lock(the_commit, write_unreadable_result);
  } else {
    SSP_GRANT_CAPABILITY(push_hooks, candidate(), Capability::push_hooks);
    auto racing = options();
    install_push_hook(push_hooks, racing, [&](PushHookPoint point) {
      if (point == PushHookPoint::after_optimistic_miss) write_unreadable_result();
    });
    answer = push(the_commit, racing);
  }
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, PushAnswerStatus::rejected);
  ASSERT_EQ(answer->results.size(), 1u);
  EXPECT_EQ(answer->results[0].code, "sync.idempotency_cache_miss");
  EXPECT_FALSE(row("tasks", "t1"));
  EXPECT_TRUE(commits().empty());
  EXPECT_EQ(count(tables, "sync_push_results"), 1);  // the unreadable one, no other
}

}  // namespace
}  // namespace ssp::harness
