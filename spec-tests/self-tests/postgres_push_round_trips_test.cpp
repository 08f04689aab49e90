// Round trips of a reference PostgreSQL push (issue 22), counted by the relay
// that counts the server's ReadyForQuery messages
// (relay/postgres_relay.hpp). With its writes staged, a push
// makes five whatever its number of operations: the optimistic lookup on the
// storage's reader, then on its own connection the lock (with BEGIN, the
// savepoint and the counter), the recheck carrying the rows read ahead, the
// row writes with the commit log, and the stored result with COMMIT.
//
// A pooled connection prepares each statement on its first run, so every
// shape is counted the second time it runs; the first run is recorded too.
//
// The one push that makes more is the one whose merged INSERTs meet a
// violation its staged order does not have (statement_merge.hpp): the
// session then replays its statements one at a time (send_staged), and the
// round trips beyond five are that replay (PUSH-REF-6).
#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "relay/postgres_relay.hpp"
#include "harness/fixtures/push_fixtures.hpp"
#include "ssp/postgres/postgres_server_storage.hpp"
#include "ssp/push/push_pipeline.hpp"

namespace ssp::harness {
namespace {

using push::PushAnswerStatus;

class ReferencePushRoundTrips : public PushTest {
 protected:
  void SetUp() override {
    PushTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    relay_ = std::make_unique<PostgresRelay>(database().location().pg_dsn);
    through_relay_ = storage::open_postgres_server_storage(
        relay_->dsn(), database().location().pg_schema, storage::ServerStorageOptions{});
    through_relay_->ensure_schema(schema());
  }

  // `count` tasks of project p1 from t<first>, each inserted (base version
  // 0) or updated (base version 1).
  push::PushCommit tasks(const std::string& client_commit_id, int first, int count,
                         std::int64_t base_version) {
    std::vector<push::PushOperation> operations;
    for (int i = first; i < first + count; ++i) {
      const std::string id = "t" + std::to_string(i);
      operations.push_back(upsert("tasks", id, task(id, "p1", client_commit_id), base_version));
    }
    return commit(client_commit_id, std::move(operations));
  }

  // A push that inserts `extra` (an email of its own), deletes `leaving`,
  // then inserts `joining` with `email` (members.by_email is unique). When
  // `email` is the one `leaving` holds, the staged order frees it before it
  // takes it again; merged, the INSERT of `joining` joins the one of `extra`
  // (same table, same shape) and so moves past the DELETE of `leaving`,
  // another row's write: the merged INSERT meets `email` still held.
  push::PushCommit delete_between_inserts(const std::string& client_commit_id,
                                          const std::string& extra, const std::string& leaving,
                                          const std::string& joining, const std::string& email) {
    return commit(client_commit_id, {upsert("members", extra, member(extra, "o1", extra + "@x")),
                                     remove("members", leaving),
                                     upsert("members", joining, member(joining, "o1", email))});
  }

  // The round trips of pushing `commit`, recorded under `name`; the push must apply.
  std::int64_t round_trips(const std::string& name, const push::PushCommit& commit) {
    const std::int64_t before = relay_->round_trips();
    const auto answer = push::run_push(*through_relay_, schema(), actor(), commit, options());
    const std::int64_t made = relay_->round_trips() - before;
    EXPECT_EQ(answer.status, PushAnswerStatus::applied) << name;
    RecordProperty(name, static_cast<int>(made));
    return made;
  }

  std::unique_ptr<PostgresRelay> relay_;
  std::unique_ptr<storage::ServerStorage> through_relay_;
};
INSTANTIATE_TEST_SUITE_P(, ReferencePushRoundTrips, ::testing::Values(Backend::postgres),
                         storage_param_name);

TEST_P(ReferencePushRoundTrips, PUSH_REF_3_APushMakesFiveRoundTripsWhateverItsOperations) {
  record_spec("§6.8", "PUSH-REF-3");
  round_trips("insert_1_first_use", tasks("w1", 100, 1, 0));
  round_trips("insert_10_first_use", tasks("w10", 200, 10, 0));
  round_trips("update_10_first_use", tasks("u10", 200, 10, 1));
  EXPECT_EQ(round_trips("insert_1", tasks("k1", 1, 1, 0)), 5);
  EXPECT_EQ(round_trips("insert_10", tasks("k10", 10, 10, 0)), 5);
  EXPECT_EQ(round_trips("update_10", tasks("k11", 10, 10, 1)), 5);
  ASSERT_TRUE(row("tasks", "t19"));
  EXPECT_EQ(version_of("tasks", "t19"), std::optional<std::int64_t>(2));
  EXPECT_EQ(max_seq(), 6);
}

// The push applies as its staged order would leave the rows, though its
// merged INSERT violated by_email: the violation is one the merge made, so
// the replay finds none. With a fresh email the same push makes the five
// round trips of PUSH-REF-3, so the ones beyond five show the replay ran.
TEST_P(ReferencePushRoundTrips, PUSH_REF_6_AViolationOnlyTheMergedOrderMeetsIsReplayedAway) {
  record_spec("§6.4", "PUSH-REF-6");
  ASSERT_GT(apply(commit("seed", {upsert("members", "m1", member("m1", "o1", "a@x")),
                                  upsert("members", "m3", member("m3", "o1", "b@x")),
                                  upsert("members", "m5", member("m5", "o1", "c@x"))})),
            0);
  round_trips("fresh_email_first_use", delete_between_inserts("w1", "m7", "m5", "m6", "f@x"));
  EXPECT_EQ(round_trips("fresh_email", delete_between_inserts("k1", "m8", "m3", "m4", "g@x")), 5);
  // m2 takes the email of m1, which the same push deletes first.
  EXPECT_GT(round_trips("freed_email", delete_between_inserts("k2", "m9", "m1", "m2", "a@x")), 5)
      << "no replay: the merged INSERT met no violation";
  EXPECT_FALSE(row("members", "m1"));
  EXPECT_EQ(payload_of("members", "m2"), member("m2", "o1", "a@x"));
  EXPECT_EQ(payload_of("members", "m9"), member("m9", "o1", "m9@x"));
  EXPECT_EQ(database().query_column("SELECT id FROM members WHERE email = 'a@x'"),
            std::vector<std::string>{"m2"});
  EXPECT_EQ(max_seq(), 4);
  const auto log = commits();
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log.back().entry.client_commit_id, "k2");
  EXPECT_EQ(log.back().entry.changes.size(), 3u);
}

}  // namespace
}  // namespace ssp::harness
