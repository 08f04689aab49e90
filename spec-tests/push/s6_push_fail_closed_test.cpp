// A push that cannot serialize, or cannot finalize its rejection, fails
// before any row is written and leaves the storage able to push again (SSP2
// §6.8 "Serialization is mandatory"; design notes push.md §1.1 step 4, §6.1
// item 9). Both failures are real ones any candidate meets, with no hook: the
// partition lock held by another connection for longer than the pusher's
// lock wait, and a database that refuses the rejection's last row write.
#include <gmock/gmock.h>

#include "harness/fixtures/push_fixtures.hpp"

namespace ssp::harness {
namespace {

using push::PushAnswerStatus;

class PushFailClosed : public PushTest {};
SSP_SQL_BACKENDS(PushFailClosed);

TEST_P(PushFailClosed, PUSH_9_AStorageThatCannotLockFailsBeforeAnyRowWrite) {
  record_spec("§6.8", "PUSH-9");
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::transactions);
  // Another connection holds the partition lock; the pusher waits 200 ms for
  // it, then must give up without running the operations.
  storage::ServerStorageOptions impatient;
  impatient.lock_wait_ms = 200;
  auto pusher = open(impatient);
  pusher->ensure_schema(schema());
  auto holder_storage = open();
  auto holder = holder_storage->begin("acme");
  ASSERT_NE(holder, nullptr);
  holder->lock_partition_for_push();
  int validations = 0;
  auto counting = options();
  counting.row_validators["tasks"] = [&](const push::RowValidation&) { ++validations; };
  const auto the_commit = commit("k1", {upsert("tasks", "t1", task("t1", "p1"))});
  EXPECT_THROW(candidate().push().push(*pusher, schema(), actor(), the_commit, counting),
               StorageError);
  EXPECT_EQ(validations, 0);
  holder->rollback();
  EXPECT_FALSE(row("tasks", "t1"));
  EXPECT_TRUE(commits().empty());
  EXPECT_FALSE(stored_result("k1"));
  // Nothing was stored, so the same commit applies once the lock is free,
  // through the storage that gave up: it is not wedged.
  const auto retry = candidate().push().push(*pusher, schema(), actor(), the_commit, options());
  EXPECT_EQ(retry.status, PushAnswerStatus::applied);
  EXPECT_TRUE(retry.commit_seq.has_value());
}

TEST_P(PushFailClosed, PUSH_9_AStorageThatCannotFinalizeARejectionStoresNothing) {
  record_spec("§6.8", "PUSH-9");
  ASSERT_GT(apply(commit("seed", {upsert("tasks", "t1", task("t1", "p1", "a"))})), 0);
  // A conflict, which a push finds by reading: every row write after it
  // finalizes the rejection. The database refuses row writes after the first
  // k (inject_write_failure, a failing disk), for k = 0, 1, … until the
  // rejection is stored: the last k that still fails the push fails its last
  // write, which finalizes the rejection, whatever the candidate writes
  // before it (a lock row, say).
  const auto conflicting = commit("k1", {upsert("tasks", "t1", task("t1", "p1", "b"), 0)});
  const std::string before = database().dump_all_tables();
  constexpr int kMoreWritesThanARejectionMakes = 50;
  int failed = 0;
  std::optional<push::PushAnswer> stored;
  for (int writes = 0; writes <= kMoreWritesThanARejectionMakes && !stored; ++writes) {
    SCOPED_TRACE("the database fails after " + std::to_string(writes) + " row writes");
    database().inject_write_failure(writes);
    try {
      stored = push(conflicting);
    } catch (const StorageError&) {  // the database's failure, as the push must report it
      ++failed;
    }
    database().clear_injected_failures();
    if (!stored) {
      EXPECT_EQ(database().dump_all_tables(), before) << "the failed rejection left a trace";
      EXPECT_FALSE(stored_result("k1"));
      if (HasFailure()) return;
    }
  }
  ASSERT_GT(failed, 0) << "the rejection was stored with no row write allowed";
  // Not wedged: with the database working, the same push stores its rejection.
  ASSERT_TRUE(stored) << "the rejection was still failing after " << kMoreWritesThanARejectionMakes
                      << " row writes";
  EXPECT_EQ(stored->status, PushAnswerStatus::rejected);
  const auto result = stored_result("k1");
  ASSERT_TRUE(result) << "the retried rejection is not stored";
  EXPECT_EQ(result->status, push::PushStatus::rejected);
  EXPECT_EQ(version_of("tasks", "t1"), std::optional<std::int64_t>(1));
  EXPECT_EQ(commits().size(), 1u);
}

}  // namespace
}  // namespace ssp::harness
