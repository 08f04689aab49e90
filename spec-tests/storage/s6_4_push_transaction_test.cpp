// Push transactions through the candidate's server storage (SSP2 §2.2, §6.4,
// §6.8; design/storage.md §5.2–§5.3, §6 D-5, D-7, D-8; design/push.md §2.1–§2.2,
// R15). E-1, E-3 and E-4, the lock races, are schedules (s6_3_push_races_test.cpp).
#include <gmock/gmock.h>

#include <latch>
#include <thread>

#include "harness/fixtures/push_storage_fixtures.hpp"

namespace ssp::harness {
namespace {

using storage::RowScan;
using storage::StoredRow;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

class PushTransaction : public PushStorageTest {
 protected:
  // A storage of its own serving items(id, code), with a unique index on code,
  // for the constraint tests (PT-2, PT-2-REF). The storage is destroyed before
  // its database.
  struct ItemsStore {
    std::unique_ptr<TestDatabase> db;
    std::unique_ptr<storage::ServerStorage> server_storage;
    storage::CompiledSchema schema;

    StoredRow item(const std::string& id, const std::string& code) const {
      return StoredRow{id,
                       1,
                       {{"id", id}},
                       current_candidate().rows().encode(schema.find("items")->layout(),
                                                         storage::Row{id, code})};
    }
  };

  // The store opened, its schema not yet ensured (callers assert first).
  ItemsStore items_store() {
    storage::ServerSchema items = schema_of(
        1, {{"items", {{"id", storage::ColumnType::string, false},
                       {"code", storage::ColumnType::string, false}}}});
    items.tables[0].indexes = {{"by_code", {"code"}, true}};
    ItemsStore store;
    store.schema = compiled(items);
    store.db = fresh_database();
    if (store.db) store.server_storage = open_on(*store.db);
    return store;
  }

  // `items`' schema ensured and a transaction of partition acme that holds the
  // push lock and has written i1 = "A": where both constraint tests start.
  // Null when the store did not open.
  std::unique_ptr<storage::PushTransaction> locked_with_one_item(ItemsStore& items) {
    if (items.db == nullptr || items.server_storage == nullptr) return nullptr;
    items.server_storage->ensure_schema(items.schema);
    auto tx = items.server_storage->begin("acme");
    if (tx == nullptr) return nullptr;
    tx->lock_partition_for_push();
    tx->upsert_row("items", items.item("i1", "A"), 0);
    return tx;
  }
};
SSP_SQL_BACKENDS(PushTransaction);

std::vector<std::string> row_ids(const std::vector<StoredRow>& rows) {
  std::vector<std::string> ids;
  for (const auto& row : rows) ids.push_back(row.row_id);
  return ids;
}

// A notes row of the example schema (body NULL).
StoredRow note_row(const std::string& id, const std::string& space) {
  return StoredRow{id,
                   1,
                   {{"space_id", space}},
                   current_candidate().rows().encode(
                       example_compiled().find("notes")->layout(),
                       storage::Row{id, space, storage::RowValue{std::monostate{}}})};
}

RowScan project_scan(std::vector<std::string> projects, std::int64_t limit = 100,
                     std::optional<std::string> after = std::nullopt) {
  return RowScan{"tasks", {{"project_id", std::move(projects)}}, std::move(after), limit};
}

TEST_P(PushTransaction, D_5_UpsertReplacesScopesARescopedRowMovesADeleteRemovesEverything) {
  record_spec("§2.2", "D-5");
  // The scope index and blob references are read in upstream's tables, where
  // the candidate keeps them; the scans judge every candidate.
  const auto tables = optional_grant(candidate(), Capability::upstream_tables);
  {
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    tx->upsert_row("tasks", task_row("t1", "p1", "one", false), 0);
    tx->upsert_row("tasks", task_row("t2", "p1", "two", false), 1);
    tx->commit();
  }
  {
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    EXPECT_THAT(row_ids(tx->scan_rows(project_scan({"p1"}))), ElementsAre("t1", "t2"));
    tx->upsert_row("tasks", task_row("t1", "p2", "moved", false, 2), 0);
    EXPECT_THAT(row_ids(tx->scan_rows(project_scan({"p1"}))), ElementsAre("t2"))
        << "the re-scoped row left p1 inside the transaction";
    EXPECT_THAT(row_ids(tx->scan_rows(project_scan({"p2"}))), ElementsAre("t1"));
    tx->commit();
  }
  if (tables) {
    EXPECT_THAT(database().query_column("SELECT var || '=' || value FROM sync_row_scopes "
                                        "WHERE partition = 'acme' AND row_id = 't1'"),
                ElementsAre("project_id=p2"))
        << "the upsert replaced the row's scope-index entries";
  }
  const auto moved = storage().get_row("acme", "tasks", "t1");
  ASSERT_TRUE(moved.has_value());
  EXPECT_EQ(*moved, task_row("t1", "p2", "moved", false, 2));

  if (tables) {
    database().exec(
        "INSERT INTO sync_blob_refs (partition, tbl, row_id, blob_id) VALUES "
        "('acme', 'tasks', 't1', 'blob-1'), ('acme', 'tasks', 't2', 'blob-2')");
  }
  {
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    tx->delete_row("tasks", "t1");
    tx->delete_row("tasks", "absent");  // a no-op
    EXPECT_FALSE(tx->get_row("tasks", "t1").has_value()) << "the transaction reads its delete";
    EXPECT_THAT(row_ids(tx->scan_rows(project_scan({"p1", "p2"}))), ElementsAre("t2"));
    tx->commit();
  }
  EXPECT_FALSE(storage().get_row("acme", "tasks", "t1").has_value());
  if (!tables) return;
  EXPECT_THAT(database().query_column("SELECT row_id FROM sync_row_scopes WHERE partition = 'acme'"),
              ElementsAre("t2"));
  EXPECT_THAT(database().query_column("SELECT row_id FROM sync_blob_refs WHERE partition = 'acme'"),
              ElementsAre("t2"));
}

// §6.8: the storage discards the candidate writes, persists the rejected
// outcome and finishes the transaction.
TEST_P(PushTransaction, D_7_ARejectionDiscardsTheWritesUnderTheLockStoresTheResultAndCommits) {
  record_spec("§6.4, §6.8", "D-7");
  const push::StoredPushResult rejection = rejected_result("app.refused", 1);
  {
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    tx->upsert_row("tasks", task_row("t1", "p1", "candidate", false), 0);
    tx->append_commit(commit_entry("k1"));
    tx->commit_rejected_push_result("c1", "k1", rejection);
    EXPECT_THROW(tx->get_row("tasks", "t1"), InvalidArgument) << "the rejection committed";
  }
  EXPECT_FALSE(storage().get_row("acme", "tasks", "t1").has_value());
  EXPECT_THAT(commit_seqs(), IsEmpty());
  const auto stored = storage().get_push_result("acme", "c1", "k1");
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(*stored, rejection);
}

// Upstream's savepoint (0.22, storage.ts): lockPartitionForPush opens it, so
// a write made before the lock is no candidate write and survives the
// rejection, the counter goes back, and a rejection without the lock has no
// savepoint to return to. SSP2 pushes never write before the lock.
TEST_P(PushTransaction, D_7_REL_ARejectionKeepsWritesBeforeTheLockAndNeedsTheLock) {
  record_spec("§6.4, §6.8", "D-7-REL");
  const push::StoredPushResult rejection = rejected_result("app.refused", 1);
  {
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    tx->upsert_row("tasks", task_row("before", "p1", "before the lock", false), 0);
    tx->lock_partition_for_push();
    tx->upsert_row("tasks", task_row("t1", "p1", "candidate", false), 0);
    tx->delete_row("tasks", "before");
    tx->append_commit(commit_entry("k1"));
    tx->commit_rejected_push_result("c1", "k1", rejection);
    EXPECT_THROW(tx->get_row("tasks", "t1"), InvalidArgument) << "the rejection committed";
  }
  EXPECT_FALSE(storage().get_row("acme", "tasks", "t1").has_value());
  EXPECT_TRUE(storage().get_row("acme", "tasks", "before").has_value())
      << "a write before the lock is not a candidate write";
  EXPECT_EQ(storage().get_max_commit_seq("acme"), 0);
  EXPECT_THAT(commit_seqs(), IsEmpty());
  if (optional_grant(candidate(), Capability::upstream_tables)) {  // upstream's scope index
    EXPECT_THAT(
        database().query_column("SELECT row_id FROM sync_row_scopes WHERE partition = 'acme'"),
        ElementsAre("before"));
  }
  const auto stored = storage().get_push_result("acme", "c1", "k1");
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(*stored, rejection);

  // Without the lock there is no savepoint to return to: refused, nothing done.
  auto tx = begin();
  ASSERT_NE(tx, nullptr);
  tx->upsert_row("tasks", task_row("t2", "p1", "unlocked", false), 0);
  try {
    tx->commit_rejected_push_result("c1", "k2", rejection);
    ADD_FAILURE() << "a rejection without the lock was accepted";
  } catch (const InvalidArgument& error) {
    EXPECT_EQ(std::string(error.what()), "push rejection requires its apply savepoint");
  }
  tx->rollback();
  EXPECT_FALSE(storage().get_push_result("acme", "c1", "k2").has_value());
  EXPECT_FALSE(storage().get_row("acme", "tasks", "t2").has_value());
}

TEST_P(PushTransaction, D_8_OnePrimaryKeyLivesInTwoPartitionsByteForByte) {
  record_spec("§2.1", "D-8");
  const StoredRow in_acme = task_row("t1", "p1", "acme's \u00e9t\u00e9 \xF0\x9F\x8C\x8D", false, 3);
  const StoredRow in_beta = task_row("t1", "p9", "", true, 1);
  for (const auto& [partition, row] : {std::pair{"acme", in_acme}, std::pair{"beta", in_beta}}) {
    auto tx = begin(partition);
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    tx->upsert_row("tasks", row, 0);
    tx->commit();
  }
  const auto acme = storage().get_row("acme", "tasks", "t1");
  const auto beta = storage().get_row("beta", "tasks", "t1");
  ASSERT_TRUE(acme.has_value());
  ASSERT_TRUE(beta.has_value());
  EXPECT_EQ(*acme, in_acme);
  EXPECT_EQ(*beta, in_beta);
  {
    auto tx = begin("acme");
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    tx->delete_row("tasks", "t1");
    tx->commit();
  }
  EXPECT_FALSE(storage().get_row("acme", "tasks", "t1").has_value());
  const auto kept = storage().get_row("beta", "tasks", "t1");
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ(*kept, in_beta);
}

// §6.8's keywords at the storage boundary: an empty scope map fails with
// sync.storage.scan_requires_scope, never an empty answer. The limit's bounds
// are the validator's reader's (PUSH-T-CV-READER-BOUNDS), not the storage's.
TEST_P(PushTransaction, SCAN_1_AScanWithoutAScopeFilterFailsWithScanRequiresScope) {
  record_spec("§6.8", "SCAN-1");
  auto tx = begin();
  ASSERT_NE(tx, nullptr);
  tx->lock_partition_for_push();
  tx->upsert_row("tasks", task_row("r1", "p1", "r1", false), 0);
  try {
    tx->scan_rows(RowScan{"tasks", {}, {}, 100});
    ADD_FAILURE() << "a scan without a scope filter was accepted";
  } catch (const storage::StorageQueryError& error) {
    EXPECT_EQ(error.code(), "sync.storage.scan_requires_scope");
  }
  tx->rollback();
}

// The rest of the scan as upstream's scanRows does it (0.22, storage.ts);
// §6.8 describes it without a keyword: staged rows in row-id order, an
// exclusive row-id cursor, every variable matched, an unknown table refused.
TEST_P(PushTransaction, SCAN_1_REL_ScanSeesStagedRowsInRowIdOrderAndPages) {
  record_spec("§6.8", "SCAN-1-REL");
  auto tx = begin();
  ASSERT_NE(tx, nullptr);
  tx->lock_partition_for_push();
  for (const char* id : {"r3", "r1", "r4", "r2"}) {
    StoredRow row = task_row(id, "p1", id, false);
    if (std::string(id) == "r4") row.scopes = {{"project_id", "p2"}};
    if (std::string(id) != "r2") row.scopes["owner"] = "u1";
    tx->upsert_row("tasks", row, 0);
  }
  EXPECT_THAT(row_ids(tx->scan_rows(project_scan({"p1"}))), ElementsAre("r1", "r2", "r3"))
      << "staged rows, ascending row id";
  EXPECT_THAT(row_ids(tx->scan_rows(project_scan({"p1", "p2", "p1"}))),
              ElementsAre("r1", "r2", "r3", "r4"));
  EXPECT_THAT(row_ids(tx->scan_rows(project_scan({"p1", "p2"}, 2))), ElementsAre("r1", "r2"));
  EXPECT_THAT(row_ids(tx->scan_rows(project_scan({"p1", "p2"}, 2, "r2"))),
              ElementsAre("r3", "r4"));
  EXPECT_THAT(row_ids(tx->scan_rows(
                  RowScan{"tasks", {{"project_id", {"p1", "p2"}}, {"owner", {"u1"}}}, {}, 100})),
              ElementsAre("r1", "r3", "r4"))
      << "every variable must match";
  EXPECT_THAT(tx->scan_rows(RowScan{"tasks", {{"project_id", {}}}, {}, 100}), IsEmpty())
      << "a variable with no values matches nothing";
  EXPECT_THAT(tx->scan_rows(RowScan{"tasks", {{"project_id", {"p1"}}, {"owner", {}}}, {}, 100}),
              IsEmpty());
  tx->delete_row("tasks", "r1");
  EXPECT_THAT(row_ids(tx->scan_rows(project_scan({"p1"}))), ElementsAre("r2", "r3"))
      << "a staged delete leaves the scan";
  EXPECT_THAT(tx->scan_rows(project_scan({"p1"}, 1)), ::testing::SizeIs(1));

  EXPECT_THROW(tx->scan_rows(RowScan{"nope", {{"project_id", {"p1"}}}, {}, 100}),
               storage::UnknownTable);
  EXPECT_THROW(tx->get_row("nope", "r1"), storage::UnknownTable);
  EXPECT_THROW(tx->upsert_row("nope", task_row("r1", "p1", "x", false), 0), storage::UnknownTable);
  EXPECT_THROW(tx->delete_row("nope", "r1"), storage::UnknownTable);
  tx->rollback();
}

TEST_P(PushTransaction, PT_1_AFinishedTransactionRefusesEverythingButRollback) {
  record_spec("§6.4", "PT-1");
  for (const bool commit : {true, false}) {
    SCOPED_TRACE(commit ? "after commit" : "after rollback");
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    if (commit) {
      tx->commit();
    } else {
      tx->rollback();
    }
    const auto expect_finished = [](const std::function<void()>& call, const char* what) {
      try {
        call();
        ADD_FAILURE() << what << " ran on a finished transaction";
      } catch (const InvalidArgument& error) {
        EXPECT_EQ(std::string(error.what()), "transaction already finished") << what;
      }
    };
    expect_finished([&] { tx->lock_partition_for_push(); }, "lock_partition_for_push");
    expect_finished([&] { tx->get_push_result("c1", "k1"); }, "get_push_result");
    expect_finished([&] { tx->get_row("tasks", "t1"); }, "get_row");
    expect_finished([&] { tx->scan_rows(project_scan({"p1"})); }, "scan_rows");
    expect_finished([&] { tx->upsert_row("tasks", task_row("t1", "p1", "x", false), 0); },
                    "upsert_row");
    expect_finished([&] { tx->delete_row("tasks", "t1"); }, "delete_row");
    expect_finished([&] { tx->append_commit(commit_entry("k1")); }, "append_commit");
    expect_finished([&] { tx->put_push_result("c1", "k1", applied_result(1)); },
                    "put_push_result");
    expect_finished([&] { tx->commit_rejected_push_result("c1", "k1", rejected_result("a.b")); },
                    "commit_rejected_push_result");
    expect_finished([&] { tx->commit(); }, "commit");
    EXPECT_NO_THROW(tx->rollback());
  }
}

// Upstream's StorageConstraintError (0.22, storage.ts): the op index and a
// fixed text, never the database's.
TEST_P(PushTransaction, PT_2_AConstraintViolationIsTypedWithoutDatabaseTextAndLeavesTheTxUsable) {
  record_spec("§6.4", "PT-2");
  ItemsStore items = items_store();
  auto tx = locked_with_one_item(items);
  ASSERT_NE(tx, nullptr);
  try {
    tx->upsert_row("items", items.item("i2", "A"), 4);
    ADD_FAILURE() << "a duplicate unique value was written";
  } catch (const storage::StorageConstraintError& error) {
    EXPECT_EQ(error.op_index(), 4);
    EXPECT_EQ(std::string(error.what()), "application row violates a relational constraint");
  }
  tx->rollback();
}

// Our constraint isolation (docs/decisions.md), not upstream's: upstream's
// PostgreSQL transaction stays aborted until the pipeline returns to the
// candidate savepoint; the reference undoes the failed statement alone.
TEST_P(PushTransaction, PT_2_REF_AConstraintViolationUndoesOnlyItsStatement) {
  record_spec("§6.4", "PT-2-REF");
  ItemsStore items = items_store();
  auto tx = locked_with_one_item(items);
  ASSERT_NE(tx, nullptr);
  EXPECT_THROW(tx->upsert_row("items", items.item("i2", "A"), 4), storage::StorageConstraintError);
  EXPECT_FALSE(tx->get_row("items", "i2").has_value()) << "nothing of the failed upsert stayed";
  tx->upsert_row("items", items.item("i3", "B"), 5);  // the transaction is still usable
  EXPECT_EQ(tx->append_commit(commit_entry("k1")), 1);
  tx->commit();
  EXPECT_TRUE(items.server_storage->get_row("acme", "items", "i1").has_value());
  EXPECT_TRUE(items.server_storage->get_row("acme", "items", "i3").has_value());
  EXPECT_FALSE(items.server_storage->get_row("acme", "items", "i2").has_value());
  EXPECT_EQ(items.server_storage->get_max_commit_seq("acme"), 1);
}

TEST_P(PushTransaction, PT_3_AnAbandonedTransactionRollsBackAndNeverWedgesTheStore) {
  record_spec("§6.4", "PT-3");
  storage::ServerStorageOptions quick;
  quick.lock_wait_ms = 2'000;  // a wedge shows as StorageError, not a hang
  auto store = open(quick);
  ASSERT_NE(store, nullptr);
  store->ensure_schema(example_compiled());
  for (int round = 0; round < 3; ++round) {
    auto tx = store->begin("acme");
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    tx->upsert_row("tasks", task_row("t1", "p1", "abandoned", false), 0);
    tx->append_commit(commit_entry("k1"));
    tx->put_push_result("c1", "k1", applied_result(1));
  }  // destroyed unfinished, three times
  auto tx = store->begin("acme");
  ASSERT_NE(tx, nullptr);
  tx->lock_partition_for_push();
  EXPECT_FALSE(tx->get_row("tasks", "t1").has_value());
  EXPECT_EQ(tx->append_commit(commit_entry("k2")), 1);
  tx->commit();
  EXPECT_FALSE(store->get_push_result("acme", "c1", "k1").has_value());
  EXPECT_NO_THROW(store->upsert_row("acme", "tasks", task_row("t9", "p1", "after", false)));
}

// --- Connection model (the lock races are schedules: s6_3_push_races_test.cpp)

TEST_P(PushTransaction, PUSH_R15_OnSqliteStorageCallsNeitherSeeNorJoinAnOpenPush) {
  record_spec("§6.4", "PUSH-R15");
  if (backend() != Backend::sqlite) {
    GTEST_SKIP() << "R15 pins SQLite's connection model; PostgreSQL never shares one";
  }
  storage::ServerStorageOptions quick;
  quick.lock_wait_ms = 150;
  auto impatient = open(quick);
  ASSERT_NE(impatient, nullptr);
  impatient->ensure_schema(example_compiled());

  auto push = begin();
  ASSERT_NE(push, nullptr);
  push->lock_partition_for_push();
  push->upsert_row("tasks", task_row("t1", "p1", "staged", false), 0);
  ASSERT_EQ(push->append_commit(commit_entry("k1")), 1);
  push->put_push_result("c1", "k1", applied_result(1));

  // Reads from another thread see the last committed state.
  Background reads([&] {
    EXPECT_FALSE(storage().get_row("acme", "tasks", "t1").has_value()) << "saw a staged row";
    EXPECT_EQ(storage().get_max_commit_seq("acme"), 0) << "saw a staged commit";
    EXPECT_THAT(storage().read_commit_window("acme", 0, 10), IsEmpty());
    EXPECT_FALSE(storage().get_push_result("acme", "c1", "k1").has_value());
  });
  if (!reads.finish()) {
    push->rollback();
    FAIL() << "a storage-level read blocked behind the open push";
  }
  // A write waits for the push's lock instead of joining its transaction.
  Background refused([&] {
    EXPECT_THROW(impatient->upsert_row("acme", "notes", note_row("n0", "s1")), StorageError);
  });
  if (!refused.finish()) {
    push->rollback();
    FAIL() << "a storage-level write with a short lock wait never gave up";
  }
  // A patient write lands after the push ends and is not undone by its
  // rollback (in whichever order the two threads meet).
  std::latch started(1);
  Background write([&] {
    started.count_down();
    storage().upsert_row("acme", "notes", note_row("n1", "s1"));
  });
  started.wait();
  push->rollback();
  ASSERT_TRUE(write.finish()) << "the storage-level write never finished";
  EXPECT_TRUE(storage().get_row("acme", "notes", "n1").has_value())
      << "the push's rollback undid a storage-level write";
  EXPECT_FALSE(storage().get_row("acme", "tasks", "t1").has_value());
  EXPECT_FALSE(storage().get_row("acme", "notes", "n0").has_value());
  EXPECT_EQ(storage().get_max_commit_seq("acme"), 0);
}

}  // namespace
}  // namespace ssp::harness
