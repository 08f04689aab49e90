// The reference's PostgreSQL put of a new id in one statement
// (insert_if_absent, bench/README.md change 7): when the id turns out to
// hold something, a record committed meanwhile by a put that held the id's
// lock or stray side rows, the put falls back to the read-merge-write steps
// and ends as those steps alone would. What any candidate's put does under
// contention is pinned by the conformance tests (SC-2, PropModel); these pin
// the reference's shortcut, which runs only without a put_hook.
#include <gtest/gtest.h>

#include <future>

#include "harness/backends/test_database.hpp"
#include "harness/catalog/spec.hpp"
#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/gates/backend_gate.hpp"
#include "harness/gates/granted_options.hpp"
#include "harness/gates/put_gate.hpp"
#include "harness/util/eventually.hpp"
#include "ssp/postgres/postgres_segment_store.hpp"
#include "ssp/segments/segment_id.hpp"

namespace ssp::harness {
namespace {

class PostgresNewIdPut : public ::testing::Test {
 protected:
  void SetUp() override {
    SSP_SKIP_UNLESS_BACKEND_READY(reference_candidate(), Backend::postgres);
    database_ = create_test_database(Backend::postgres);
    ASSERT_NE(database_, nullptr);
    store_ = open_postgres_segment_store(location().pg_dsn, location().pg_schema, {});
  }

  const DatabaseLocation& location() const { return database_->location(); }
  TestDatabase& database() { return *database_; }
  SegmentStore& store() { return *store_; }

  // Whether a connection waits for the advisory lock of `id` (DECISION D6:
  // keys 'SSPS' and hashtext of the id, which pg_locks shows as classid and
  // objid, an unsigned 32-bit number).
  bool a_put_waits_for_the_lock_of(const std::string& id) {
    const auto count = database().query_column(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
        "AND classid = 1397968979 AND objsubid = 2 AND objid::bigint = (hashtext('" +
        id + "')::bigint + 4294967296) % 4294967296");
    return !count.empty() && count.front() != "0";
  }

 private:
  std::unique_ptr<TestDatabase> database_;
  std::unique_ptr<SegmentStore> store_;
};

TEST_F(PostgresNewIdPut, PG_NEW_1_APutThatWaitedForTheLockMergesWithWhatTheHolderCommitted) {
  record_spec("§5.1", "PG-NEW-1");
  const Bytes bytes = payload("contended");
  const std::string id = sha256_segment_id(bytes);
  // Another writer holds the id's lock: a second store whose put of the same
  // bytes is parked at before_commit, its record written, not committed.
  SSP_GRANT_CAPABILITY(hooks, reference_candidate(), Capability::hooks);
  PutGate gate(hooks, PutHookPoint::before_commit);
  SegmentStoreOptions parked_options;
  install_put_hook(hooks, parked_options, gate.hook());
  auto holder =
      open_postgres_segment_store(location().pg_dsn, location().pg_schema, parked_options);
  auto held = std::async(std::launch::async, [&] {
    return holder->put(with_digest(base_metadata(), "digest-a"), bytes, kNow);
  });
  ASSERT_TRUE(gate.wait_until_reached()) << "the holder never reached before_commit (watchdog)";

  auto waiting = std::async(std::launch::async, [&] {
    return store().put(with_digest(base_metadata(), "digest-b"), bytes, kNow + 1);
  });
  const bool parked = eventually([&] { return a_put_waits_for_the_lock_of(id); }, kWatchdog);
  gate.release();
  ASSERT_TRUE(parked) << "the new-id put never waited for the id's lock";
  ASSERT_NO_THROW(held.get());
  SegmentRecord merged;
  ASSERT_NO_THROW(merged = waiting.get());

  const auto stored = store().get(id);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->record, merged);
  ASSERT_EQ(merged.publications.size(), 2u) << "the waiting put lost the holder's publication";
  EXPECT_EQ(merged.publications[0].metadata.scope_digest, "digest-a");
  EXPECT_EQ(merged.publications[1].metadata.scope_digest, "digest-b");
  EXPECT_EQ(merged.created_at_ms, kNow) << "the merge keeps the first put's creation time";
}

TEST_F(PostgresNewIdPut, PG_NEW_2_StraySideRowsOfANewIdAreClearedNotKept) {
  record_spec("§5.1", "PG-NEW-2");
  const Bytes bytes = payload("stray");
  const std::string id = sha256_segment_id(bytes);
  // Side rows without a top row, as a foreign writer's partial cleanup
  // leaves them.
  database().exec("INSERT INTO sync_segment_scopes(segment_id, scope_digest) VALUES ('" + id +
                  "', 'digest-stray')");
  database().exec(
      "INSERT INTO sync_segment_publications(segment_id, pub_key, ord, partition, log_epoch, "
      "tbl, schema_version, media_type, scope_digest, as_of_commit_seq, row_count, row_cursor, "
      "next_row_cursor, byte_length, created_at_ms, expires_at_ms) VALUES ('" + id +
      "', 'stray-key', 0, 'p', 'epoch-1', 'tasks', 1, 'sqlite', 'digest-stray', 42, 5, NULL, "
      "NULL, 3, 1, 2)");

  SegmentRecord record;
  ASSERT_NO_THROW(record = store().put(base_metadata(), bytes, kNow));
  ASSERT_EQ(record.publications.size(), 1u);
  EXPECT_EQ(record.scope_digests, std::vector<std::string>{"digest-a"});
  const auto stored = store().get(id);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->record, record);
  EXPECT_EQ(database().query_column("SELECT count(*) FROM sync_segment_publications "
                                    "WHERE pub_key = 'stray-key' OR scope_digest = 'digest-stray'"),
            std::vector<std::string>{"0"});
  EXPECT_EQ(database().query_column("SELECT count(*) FROM sync_segment_scopes "
                                    "WHERE scope_digest = 'digest-stray'"),
            std::vector<std::string>{"0"});
}

}  // namespace
}  // namespace ssp::harness
