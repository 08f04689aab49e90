// An authoritative query from inside a validator (SSP2 §6.8; design notes
// push.md §4.3–§4.4, T-VAL-DEADLOCK, T-VAL-POOL-VISIBILITY,
// T-VAL-POOL-STARVATION; the 0.22 warning that a validator cannot read
// candidate rows through queryAuthoritative). The query is the storage's,
// asked while the candidate's push waits for the validator's answer. SSP2
// says nothing of the query: what DEADLOCK and POOL-VISIBILITY assert is the
// 0.22 release's documented behaviour (seed diff, storage.ts and validate.ts);
// POOL-STARVATION is the reference's answer to push.md Q3.
#include <gmock/gmock.h>

#include <chrono>
#include <future>

#include "harness/fixtures/push_fixtures.hpp"
#include "harness/fixtures/push_storage_fixtures.hpp"
#include "harness/gates/granted_options.hpp"
#include "harness/util/eventually.hpp"

namespace ssp::harness {
namespace {

using push::PushAnswerStatus;
using storage::AuthoritativeRead;
using ::testing::ElementsAre;

// How long a validator waits for its query before it gives up: a candidate
// that serializes the query behind the push (a single-connection executor)
// never answers inside it, and only that candidate waits it out. Which branch
// a test asserts must not depend on how fast the machine is (a query that
// answers inside the push, slowly, is not one that waits for it), so the wait
// is the generous watchdog, not a guess at how long a query takes.
constexpr std::chrono::seconds kQueryPatience = kWatchdog;

class QueryAuthoritative : public PushTest {
 protected:
  void SetUp() override {
    PushTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SSP_REQUIRE_CAPABILITY(candidate(), Capability::authoritative_queries);
    // r1 "old" at version 1.
    seed_seq_ = apply(commit("seed", {upsert("tasks", "r1", task("r1", "p1", "old"))}));
    ASSERT_GT(seed_seq_, 0);
  }

  // The push every test runs: inserts r3, updates r1 to "new".
  push::PushCommit candidate_commit() {
    return commit("k2", {upsert("tasks", "r3", task("r3", "p1", "staged")),
                         upsert("tasks", "r1", task("r1", "p1", "new"))});
  }

  // The title of a stored row, decoded by the candidate's codec.
  std::optional<std::string> title(const storage::StoredRow& row) {
    return task_title(decode("tasks", row.payload));
  }

  // A query of r1 and r3 on another thread.
  std::future<AuthoritativeRead> start_query() {
    return std::async(std::launch::async, [this] {
      return storage().query_authoritative("acme", "tasks", {"r1", "r3"});
    });
  }

  // What the state before the push looks like: r1 "old" alone, at the seed's seq.
  void expect_committed_state(const AuthoritativeRead& read, const std::string& when) {
    SCOPED_TRACE(when);
    ASSERT_EQ(read.rows.size(), 1u) << "the query saw a staged row (r3) or lost r1";
    EXPECT_EQ(read.rows[0].row_id, "r1");
    EXPECT_EQ(read.rows[0].server_version, 1);
    EXPECT_EQ(title(read.rows[0]), std::optional<std::string>("old"))
        << "the query saw the push's staged update";
    EXPECT_EQ(read.max_commit_seq, seed_seq_);
  }

  std::int64_t seed_seq_ = 0;  // the seed commit's
};
SSP_SQL_BACKENDS(QueryAuthoritative);

TEST_P(QueryAuthoritative, PUSH_T_VAL_DEADLOCK_AQueryFromInsideAPushNeverWedgesTheStorage) {
  record_spec("§6.8", "PUSH-T-VAL-DEADLOCK");
  std::future<AuthoritativeRead> query;
  auto validating = options();
  validating.commit_validator = [&](const push::CommitValidation&) {
    query = start_query();
    if (query.wait_for(kQueryPatience) != std::future_status::ready) {
      throw push::ValidationRejection("test.query_timeout", "the query waits for this push");
    }
  };
  const auto answer = push(candidate_commit(), validating);
  // Either the query answered inside the push (it applied), or it waits for
  // the push, which the validator then rejected: both are SSP2's.
  ASSERT_TRUE(answer.status == PushAnswerStatus::applied ||
              (answer.status == PushAnswerStatus::rejected && answer.results.size() == 1 &&
               answer.results[0].code == "test.query_timeout"))
      << ::testing::PrintToString(answer);
  ASSERT_TRUE(query.valid()) << "the commit validator never ran";
  ASSERT_EQ(query.wait_for(kWatchdog), std::future_status::ready)
      << "the query never answered, even after its push ended";
  expect_committed_state(query.get(), "the query asked from inside the push");
  // The storage is not wedged: the next push applies.
  EXPECT_GT(apply(commit("k3", {upsert("tasks", "r4", task("r4", "p1"))})),
            answer.commit_seq.value_or(seed_seq_));
}

TEST_P(QueryAuthoritative, PUSH_T_VAL_POOL_VISIBILITY_TheQuerySeesCommittedRowsTheReaderSeesTheCandidate) {
  record_spec("§6.8", "PUSH-T-VAL-POOL-VISIBILITY");
  std::optional<AuthoritativeRead> inside;
  std::optional<storage::StoredRow> staged_insert;
  std::optional<storage::StoredRow> staged_update;
  std::future<AuthoritativeRead> query;
  auto validating = options();
  validating.commit_validator = [&](const push::CommitValidation& input) {
    staged_insert = input.read.get_row("tasks", "r3");
    staged_update = input.read.get_row("tasks", "r1");
    query = start_query();
    if (query.wait_for(kQueryPatience) == std::future_status::ready) inside = query.get();
  };
  const auto answer = push(candidate_commit(), validating);
  ASSERT_EQ(answer.status, PushAnswerStatus::applied) << ::testing::PrintToString(answer);
  ASSERT_TRUE(staged_insert.has_value()) << "the reader did not see the staged insert";
  EXPECT_EQ(staged_insert->server_version, 1);
  ASSERT_TRUE(staged_update.has_value());
  EXPECT_EQ(staged_update->server_version, 2) << "the reader's version is nextServerVersion";
  EXPECT_EQ(title(*staged_update), std::optional<std::string>("new"));
  if (inside) {
    expect_committed_state(*inside, "the query answered inside the push");
  } else {
    // A candidate that serializes the query behind the push answers after it:
    // the committed state is then the push's own.
    ASSERT_EQ(query.wait_for(kWatchdog), std::future_status::ready);
    const AuthoritativeRead after = query.get();
    ASSERT_EQ(after.rows.size(), 2u);
    EXPECT_EQ(after.max_commit_seq, answer.commit_seq.value_or(0));
  }
}

TEST_P(QueryAuthoritative, PUSH_T_VAL_POOL_STARVATION_AQueryAnswersWhileAnotherPushWaitsForTheLock) {
  record_spec("§6.8", "PUSH-T-VAL-POOL-STARVATION");
  SSP_GRANT_CAPABILITY(push_hooks, candidate(), Capability::push_hooks);
  // Push B waits for the partition while push A's validator queries: with a
  // pool of two connections upstream hangs here. The reference gives every
  // transaction a connection of its own and reads on another: it answers.
  std::optional<AuthoritativeRead> inside;
  std::promise<void> validating_started;
  std::promise<void> second_waiting;
  auto let_validator_go = second_waiting.get_future().share();
  auto validating = options();
  validating.commit_validator = [&](const push::CommitValidation&) {
    validating_started.set_value();
    let_validator_go.wait_for(kWatchdog);
    auto query = start_query();
    if (query.wait_for(kQueryPatience) == std::future_status::ready) inside = query.get();
  };
  auto second_storage = open();
  ASSERT_NE(second_storage, nullptr);
  second_storage->ensure_schema(schema());
  std::promise<void> looked_up;
  auto waiting = options();
  install_push_hook(push_hooks, waiting, [&](push::PushHookPoint point) {
    if (point == push::PushHookPoint::after_optimistic_miss) looked_up.set_value();
  });
  auto validator_started = validating_started.get_future();
  auto second_looked_up = looked_up.get_future();
  bool validator_ran = false;
  bool second_ran = false;
  bool held = false;
  {
    Background first([&] { push(candidate_commit(), validating); });
    validator_ran = validator_started.wait_for(kWatchdog) == std::future_status::ready;
    std::optional<Background> second;
    if (validator_ran) {
      second.emplace([&] {
        candidate().push().push(*second_storage, schema(), actor(),
                                commit("k9", {upsert("tasks", "r9", task("r9", "p1"))}), waiting);
      });
      second_ran = second_looked_up.wait_for(kWatchdog) == std::future_status::ready;
      // Past its lookup the second push begins: SQLite's begin waits for the
      // first push's write lock, PostgreSQL's lock for its partition.
      if (second_ran) held = eventually([&] { return database().shows_lock_waits(1); }, kWatchdog);
    }
    second_waiting.set_value();  // the first push's validator queries, then both finish
  }
  ASSERT_TRUE(validator_ran) << "the first push's validator never ran";
  ASSERT_TRUE(second_ran) << "the second push never passed its lookup";
  EXPECT_TRUE(held) << "the second push was never seen waiting";
  ASSERT_TRUE(inside.has_value()) << "the query did not answer while a push waited for the lock";
  expect_committed_state(*inside, "the query asked while a push waited");
}

}  // namespace
}  // namespace ssp::harness
