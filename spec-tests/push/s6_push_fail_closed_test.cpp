// A push that cannot serialize, or cannot finalize its rejection, fails
// before any row is written and leaves the storage able to push again (SSP2
// §6.8 "Serialization is mandatory"; design notes push.md §1.1 step 4, §6.1
// item 9). Both failures are real ones the protocol can carry: the partition
// lock held by another connection for longer than the pusher's lock wait, and
// a failure injected where the rejection is finalized (its hook point H6).
#include <gmock/gmock.h>

#include "harness/fixtures/push_fixtures.hpp"
#include "harness/gates/granted_options.hpp"

namespace ssp::harness {
namespace {

using push::PushAnswerStatus;
using push::PushHookPoint;

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
  SSP_GRANT_CAPABILITY(push_hooks, candidate(), Capability::push_hooks);
  ASSERT_GT(apply(commit("seed", {upsert("tasks", "t1", task("t1", "p1", "a"))})), 0);
  // The conflict rejects the push; finalizing that rejection fails.
  auto failing = options();
  install_push_hook(push_hooks, failing, [](PushHookPoint point) {
    if (point == PushHookPoint::before_commit) throw StorageError("the rejection cannot be stored");
  });
  const auto conflicting = commit("k1", {upsert("tasks", "t2", task("t2", "p1")),
                                         upsert("tasks", "t1", task("t1", "p1", "b"), 0)});
  EXPECT_THROW(push(conflicting, failing), StorageError);
  EXPECT_FALSE(row("tasks", "t2"));
  EXPECT_FALSE(stored_result("k1"));
  EXPECT_TRUE(stored_result("seed"));
  EXPECT_EQ(commits().size(), 1u);
  // The storage is not wedged, and the retry stores the rejection itself.
  const auto retry = push(conflicting);
  EXPECT_EQ(retry.status, PushAnswerStatus::rejected);
  const auto stored = stored_result("k1");
  ASSERT_TRUE(stored) << "the retried rejection is not stored";
  EXPECT_EQ(stored->status, push::PushStatus::rejected);
}

}  // namespace
}  // namespace ssp::harness
