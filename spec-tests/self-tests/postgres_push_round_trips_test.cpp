// Round trips of a reference PostgreSQL push (issue 22), counted by the relay
// that counts the server's ReadyForQuery messages
// (harness/backends/postgres_round_trip_counter.hpp). With its writes staged, a push
// makes five whatever its number of operations: the optimistic lookup on the
// storage's reader, then on its own connection the lock (with BEGIN, the
// savepoint and the counter), the recheck carrying the rows read ahead, the
// row writes with the commit log, and the stored result with COMMIT.
//
// A pooled connection prepares each statement on its first run, so every
// shape is counted the second time it runs; the first run is recorded too.
#include <gmock/gmock.h>

#include "harness/backends/postgres_round_trip_counter.hpp"
#include "harness/fixtures/push_fixtures.hpp"
#include "ssp/postgres/postgres_server_storage.hpp"

namespace ssp::harness {
namespace {

using push::PushAnswerStatus;

class ReferencePushRoundTrips : public PushTest {
 protected:
  void SetUp() override {
    PushTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    relay_ = std::make_unique<PostgresRoundTripCounter>(database().location().pg_dsn);
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

  // The round trips of pushing `commit`, recorded under `name`; the push must apply.
  std::int64_t round_trips(const std::string& name, const push::PushCommit& commit) {
    const std::int64_t before = relay_->round_trips();
    const auto answer = push::run_push(*through_relay_, schema(), actor(), commit, options());
    const std::int64_t made = relay_->round_trips() - before;
    EXPECT_EQ(answer.status, PushAnswerStatus::applied) << name;
    RecordProperty(name, static_cast<int>(made));
    return made;
  }

  std::unique_ptr<PostgresRoundTripCounter> relay_;
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

}  // namespace
}  // namespace ssp::harness
