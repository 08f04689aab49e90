// The commit log and stored push results through the candidate's server
// storage (SSP2 §2.1, §2.3, §3.1; design/storage.md §4.1–§4.2, §6 D-1 … D-4).
#include <gmock/gmock.h>
#include <nlohmann/json.hpp>

#include "harness/fixtures/fixture_files.hpp"
#include "harness/fixtures/push_storage_fixtures.hpp"

namespace ssp::harness {
namespace {

using storage::Change;
using storage::ChangeOp;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

class CommitLog : public PushStorageTest {
 protected:
  // Each case of unreadable_push_results.json at `level` ("0.22": what
  // upstream's own readers refuse; "reference": the shapes only the
  // reference's stricter reader refuses), written into upstream's table and
  // read back both ways: a cache miss each time, and the transaction stays
  // usable.
  void expect_each_case_misses(const std::string& level);
};
SSP_SQL_BACKENDS(CommitLog);

// Appends one empty commit to `partition` in a transaction of its own, with
// the lock, and commits; the seq it was given.
std::int64_t append_one(storage::ServerStorage& storage, const std::string& partition,
                        const std::string& commit_id) {
  auto tx = storage.begin(partition);
  if (!tx) throw std::runtime_error("begin returned no transaction");
  tx->lock_partition_for_push();
  const std::int64_t seq = tx->append_commit(commit_entry(commit_id));
  tx->commit();
  return seq;
}

TEST_P(CommitLog, D_1_SeqsAreDensePerPartitionAndARolledBackAppendIsReused) {
  record_spec("§2.1", "D-1");
  EXPECT_EQ(storage().get_max_commit_seq("acme"), 0);
  EXPECT_EQ(append_one(storage(), "acme", "k1"), 1);
  EXPECT_EQ(append_one(storage(), "acme", "k2"), 2);
  EXPECT_EQ(append_one(storage(), "beta", "k1"), 1) << "partitions count independently";

  {  // rolled back explicitly
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    EXPECT_EQ(tx->append_commit(commit_entry("k3")), 3);
    tx->rollback();
  }
  {  // without the partition lock the counter is still dense
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    EXPECT_EQ(tx->append_commit(commit_entry("k3")), 3);
    tx->commit();
  }
  EXPECT_EQ(append_one(storage(), "acme", "k4"), 4);

  EXPECT_EQ(storage().get_max_commit_seq("acme"), 4);
  EXPECT_EQ(storage().get_max_commit_seq("beta"), 1);
  EXPECT_EQ(storage().get_max_commit_seq("gamma"), 0);
  EXPECT_THAT(commit_seqs("acme"), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(commit_seqs("beta"), ElementsAre(1));
  if (optional_grant(candidate(), Capability::upstream_tables)) {  // upstream's counter row
    EXPECT_EQ(database().query_column("SELECT CAST(max_commit_seq AS TEXT) FROM sync_partitions "
                                      "WHERE partition = 'acme'"),
              std::vector<std::string>{"4"});
  }
}

TEST_P(CommitLog, D_2_ChangesAreStoredInOrderWithOpVersionPayloadAndDistinctScopes) {
  record_spec("§2.1, §3.1", "D-2");
  const storage::Bytes t1_payload = task_row("t1", "p1", "first", false).payload;
  const storage::Bytes t3_payload = task_row("t3", "p1", std::nullopt, true).payload;
  const std::vector<Change> changes = {
      Change{"tasks", "t1", ChangeOp::upsert, 1, {{"project_id", "p1"}}, t1_payload},
      Change{"tasks", "t2", ChangeOp::remove, std::nullopt, {{"project_id", "p1"}}, std::nullopt},
      Change{"tasks", "t3", ChangeOp::upsert, 7, {{"project_id", "p1"}}, t3_payload},
      Change{"notes", "n1", ChangeOp::remove, std::nullopt, {{"space_id", "s1"}}, std::nullopt},
  };
  {
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    ASSERT_EQ(tx->append_commit(commit_entry("k1", changes)), 1);
    ASSERT_EQ(tx->append_commit(commit_entry("k2")), 2) << "a commit may have no changes";
    tx->commit();
  }

  const auto window = storage().read_commit_window("acme", 0, 10);
  ASSERT_EQ(window.size(), 2u);
  EXPECT_EQ(window[0], (storage::Commit{1, commit_entry("k1", changes)}));
  EXPECT_EQ(window[1], (storage::Commit{2, commit_entry("k2")}));
  const auto after_first = storage().read_commit_window("acme", 1, 10);
  ASSERT_EQ(after_first.size(), 1u);
  EXPECT_EQ(after_first[0].commit_seq, 2);
  const auto limited = storage().read_commit_window("acme", 0, 1);
  ASSERT_EQ(limited.size(), 1u);
  EXPECT_EQ(limited[0].commit_seq, 1);
  EXPECT_THAT(storage().read_commit_window("acme", 2, 10), IsEmpty());

  // The stored columns upstream reads: idx in order, op 1/2, version and
  // payload on upserts only, scopes as JSON text.
  if (!optional_grant(candidate(), Capability::upstream_tables)) return;
  EXPECT_THAT(database().query_column(
                  "SELECT CAST(idx AS TEXT) || ':' || row_id || ':' || CAST(op AS TEXT) || ':' || "
                  "COALESCE(CAST(row_version AS TEXT), '-') || ':' || "
                  "CASE WHEN payload IS NULL THEN 'no payload' ELSE 'payload' END "
                  "FROM sync_changes WHERE partition = 'acme' ORDER BY commit_seq, idx"),
              ElementsAre("0:t1:1:1:payload", "1:t2:2:-:no payload", "2:t3:1:7:payload",
                          "3:n1:2:-:no payload"));
  EXPECT_THAT(database().query_column("SELECT CAST(scopes AS TEXT) FROM sync_changes "
                                      "WHERE partition = 'acme' AND idx = 0"),
              ElementsAre(::testing::AnyOf("{\"project_id\":\"p1\"}", "{\"project_id\": \"p1\"}")));
  EXPECT_THAT(database().query_column(
                  "SELECT tbl || '|' || var || '|' || value || '|' || CAST(commit_seq AS TEXT) "
                  "FROM sync_change_scopes WHERE partition = 'acme' ORDER BY tbl, var, value"),
              ElementsAre("notes|space_id|s1|1", "tasks|project_id|p1|1"))
      << "one change-scope row per distinct (table, variable, value)";
  EXPECT_THAT(database().query_column(
                  "SELECT client_id || '|' || client_commit_id || '|' || actor_id || '|' || "
                  "CAST(created_at_ms AS TEXT) FROM sync_commits WHERE partition = 'acme' "
                  "ORDER BY commit_seq"),
              ElementsAre("c1|k1|actor-1|1700000000000", "c1|k2|actor-1|1700000000000"));
}

// A rejected result whose one record is a conflict, with a server row.
push::StoredPushResult conflict_result() {
  push::StoredPushResult conflict = rejected_result("app.refused", 2);
  conflict.results[0].status = push::OperationStatus::conflict;
  conflict.results[0].code = "sync.conflict";
  conflict.results[0].server_version = 3;
  conflict.results[0].server_row = storage::Bytes{0, 1, 2, 0xff};
  return conflict;
}

// §2.3: the full result persists and reads back byte-equivalent; §6.4: in the
// same transaction as its commit, so both vanish with a rollback. Which seq a
// commit gets is not asked here (D-1).
TEST_P(CommitLog, D_3_AStoredResultReadsBackAndVanishesWithItsRollback) {
  record_spec("§2.3, §6.4", "D-3");
  const push::StoredPushResult conflict = conflict_result();
  std::int64_t seq = 0;
  {
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    seq = tx->append_commit(commit_entry("k1"));
    tx->put_push_result("c1", "k1", applied_result(seq));
    tx->put_push_result("c1", "k2", conflict);
    tx->commit();
  }
  const auto first = storage().get_push_result("acme", "c1", "k1");
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first, applied_result(seq));
  const auto second = storage().get_push_result("acme", "c1", "k2");
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(*second, conflict) << "conflict bytes, version and code survive the round trip";

  {  // a result and its commit vanish together with the rollback
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    const std::int64_t undone = tx->append_commit(commit_entry("k3"));
    tx->put_push_result("c1", "k3", applied_result(undone));
    tx->rollback();
  }
  EXPECT_FALSE(storage().get_push_result("acme", "c1", "k3").has_value());
  EXPECT_THAT(commit_seqs(), ElementsAre(seq)) << "the rolled-back commit is not in the log";
  const auto stored = storage().get_push_result("acme", "c1", "k1");
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(*stored, applied_result(seq));
}

// Upstream's putPushResult is insert-if-absent (0.22, storage.ts): a second
// put of a key, in its transaction or a later one, is ignored without an
// error, and results are kept per partition. SSP2 asks nothing of a second
// put: the pipeline's locked recheck never makes one.
TEST_P(CommitLog, D_3_REL_ASecondPutOfAKeyIsIgnoredSilently) {
  record_spec("§2.3, §6.4", "D-3-REL");
  const push::StoredPushResult conflict = conflict_result();
  {
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    const std::int64_t seq = tx->append_commit(commit_entry("k1"));
    tx->put_push_result("c1", "k1", applied_result(seq));
    tx->put_push_result("c1", "k1", conflict);  // silently ignored: the first wins
    const auto staged = tx->get_push_result("c1", "k1");
    ASSERT_TRUE(staged.has_value());
    EXPECT_EQ(*staged, applied_result(seq));
    tx->commit();
  }
  EXPECT_FALSE(storage().get_push_result("beta", "c1", "k1").has_value())
      << "results are per partition";

  {  // a later transaction cannot replace a committed result
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    tx->put_push_result("c1", "k1", conflict);
    const auto locked = tx->get_push_result("c1", "k1");
    ASSERT_TRUE(locked.has_value());
    EXPECT_EQ(*locked, applied_result(1));
    tx->commit();
  }
  const auto stored = storage().get_push_result("acme", "c1", "k1");
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(*stored, applied_result(1));
}

TEST_P(CommitLog, D_4_AnUnreadableStoredResultIsAnIdempotencyCacheMiss) {
  record_spec("§10.2", "D-4");
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::upstream_tables);
  expect_each_case_misses("0.22");
}

TEST_P(CommitLog, D_4_REF_AStoredResultIsReadableOnlyInTheShapeItIsWritten) {
  record_spec("§10.2", "D-4-REF");
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::upstream_tables);
  expect_each_case_misses("reference");
}

void CommitLog::expect_each_case_misses(const std::string& level) {
  const auto cases =
      nlohmann::json::parse(read_fixture("cases/storage/unreadable_push_results.json"));
  int played = 0;  // a level with no case on this backend would test nothing
  for (const auto& entry : cases.at("cases")) {
    const std::string name = entry.at("name");
    SCOPED_TRACE(name);
    if (entry.value("sqlite_only", false) && backend() != Backend::sqlite) continue;
    if (entry.value("level", "0.22") != level) continue;
    ++played;
    std::string text = entry.at("result");
    std::string quoted;
    for (const char c : text) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    database().exec(
        "INSERT INTO sync_push_results (partition, client_id, client_commit_id, result) "
        "VALUES ('acme', 'c1', '" +
        name + "', '" + quoted + "')");
    try {
      storage().get_push_result("acme", "c1", name);
      ADD_FAILURE() << "storage-level get_push_result read an unreadable result";
    } catch (const push::IdempotencyCacheMiss& miss) {
      EXPECT_EQ(std::string(miss.what()), "persisted push result unreadable (§6.3)");
    }
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    EXPECT_THROW(tx->get_push_result("c1", name), push::IdempotencyCacheMiss)
        << "the locked recheck misses the same way";
    EXPECT_NO_THROW(tx->append_commit(commit_entry("after-" + name)))
        << "the transaction stays usable after the miss";
    tx->rollback();
  }
  EXPECT_GT(played, 0) << "unreadable_push_results.json has no case at level " << level;
  EXPECT_EQ(push::IdempotencyCacheMiss::code(), "sync.idempotency_cache_miss");
  EXPECT_EQ(storage().get_max_commit_seq("acme"), 0);
}

}  // namespace
}  // namespace ssp::harness
