// The reference's staged writes (PushTransaction::stage_writes, issue 22):
// the contract every storage keeps, whether it stages (PostgreSQL) or writes
// at once (SQLite, which the contract allows). Reads see staged rows; a
// constraint violation among them names the first violating operation in
// call order, from its own upsert_row or from the call that sends them, and
// leaves the transaction usable; a staged commit applies whole.
#include <gmock/gmock.h>

#include "harness/fixtures/push_storage_fixtures.hpp"

namespace ssp::harness {
namespace {

using storage::StoredRow;

class ReferenceStagedWrites : public PushStorageTest {
 protected:
  // items(id, code) with a unique index on code.
  void SetUp() override {
    PushStorageTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    storage::ServerSchema schema = schema_of(1, {{"items",
                                                  {{"id", storage::ColumnType::string, false},
                                                   {"code", storage::ColumnType::string, false}}}});
    schema.tables[0].indexes = {{"by_code", {"code"}, true}};
    items_schema_ = compiled(schema);
    items_db_ = fresh_database();
    ASSERT_NE(items_db_, nullptr);
    items_ = open_on(*items_db_);
    ASSERT_NE(items_, nullptr);
    items_->ensure_schema(items_schema_);
  }

  StoredRow item(const std::string& id, const std::string& code) {
    return StoredRow{id,
                     1,
                     {{"id", id}},
                     current_candidate().rows().encode(items_schema_.find("items")->layout(),
                                                       storage::Row{id, code})};
  }

  storage::CompiledSchema items_schema_;
  std::unique_ptr<TestDatabase> items_db_;
  std::unique_ptr<storage::ServerStorage> items_;
};
SSP_SQL_BACKENDS(ReferenceStagedWrites);

TEST_P(ReferenceStagedWrites, PUSH_REF_4_StagingNeedsTheLock) {
  record_spec("§6.4", "PUSH-REF-4");
  auto tx = items_->begin("acme");
  ASSERT_NE(tx, nullptr);
  EXPECT_THROW(tx->stage_writes(), InvalidArgument);
}

TEST_P(ReferenceStagedWrites, PUSH_REF_4_StagedRowsAreReadAndAStagedCommitAppliesWhole) {
  record_spec("§6.4", "PUSH-REF-4");
  auto tx = items_->begin("acme");
  ASSERT_NE(tx, nullptr);
  tx->lock_partition_for_push();
  tx->prefetch_rows("items", {"i1", "i2", "i9"});
  tx->prefetch_rows("unknown_table", {"x"});  // a hint: ignored
  tx->stage_writes();
  tx->upsert_row("items", item("i1", "A"), 0);
  tx->upsert_row("items", item("i2", "B"), 1);
  tx->delete_row("items", "i2");
  const auto staged = tx->get_row("items", "i1");
  ASSERT_TRUE(staged.has_value());
  EXPECT_EQ(staged->payload, item("i1", "A").payload);
  EXPECT_FALSE(tx->get_row("items", "i2").has_value()) << "a staged delete is read";
  EXPECT_FALSE(tx->get_row("items", "i9").has_value());
  EXPECT_EQ(tx->append_commit(commit_entry("k1")), 1);
  tx->put_push_result("c1", "k1", applied_result(1));
  tx->commit();
  EXPECT_TRUE(items_->get_row("acme", "items", "i1").has_value());
  EXPECT_FALSE(items_->get_row("acme", "items", "i2").has_value());
  EXPECT_EQ(items_->get_max_commit_seq("acme"), 1);
  EXPECT_TRUE(items_->get_push_result("acme", "c1", "k1").has_value());
}

TEST_P(ReferenceStagedWrites, PUSH_REF_4_AViolationNamesTheFirstViolatingOperation) {
  record_spec("§6.4", "PUSH-REF-4");
  auto tx = items_->begin("acme");
  ASSERT_NE(tx, nullptr);
  tx->lock_partition_for_push();
  tx->stage_writes();
  std::optional<std::int64_t> violated_at;
  const auto write = [&](const std::string& id, const std::string& code, std::int64_t op) {
    try {
      tx->upsert_row("items", item(id, code), op);
    } catch (const storage::StorageConstraintError& error) {
      if (!violated_at) violated_at = error.op_index();  // a storage that writes at once
    }
  };
  write("i1", "A", 0);
  write("i2", "A", 3);  // violates
  write("i3", "A", 5);  // would violate too, later in call order
  if (!violated_at) {
    try {
      tx->flush_writes();
      ADD_FAILURE() << "the staged duplicates were written";
    } catch (const storage::StorageConstraintError& error) {
      violated_at = error.op_index();
    }
  }
  EXPECT_EQ(violated_at, std::optional<std::int64_t>(3));
  EXPECT_FALSE(tx->get_row("items", "i2").has_value()) << "the violating write stayed";
  // The transaction is usable, the lock held: it writes and commits.
  tx->upsert_row("items", item("i4", "B"), 6);
  EXPECT_EQ(tx->append_commit(commit_entry("k1")), 1);
  tx->commit();
  EXPECT_TRUE(items_->get_row("acme", "items", "i4").has_value());
  EXPECT_FALSE(items_->get_row("acme", "items", "i2").has_value());
  EXPECT_FALSE(items_->get_row("acme", "items", "i3").has_value());
  EXPECT_EQ(items_->get_max_commit_seq("acme"), 1);
}

}  // namespace
}  // namespace ssp::harness
