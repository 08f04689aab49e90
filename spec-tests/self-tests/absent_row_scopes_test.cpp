// The reference's write of a row it read absent under the partition lock
// (issue 37): such a row has no scope entries (every deletion of a row
// removes its entries in the same transaction, upstream's and the
// reference's alike), so a PostgreSQL push stages no removal of them
// (storage_postgres_sql.hpp, row_scopes_replacement). These tests pin what
// that must not change: a row written where none is stored holds exactly the
// entries of its last write, whether it never existed, was deleted earlier in
// the same transaction, or was written once already in it.
#include <gmock/gmock.h>

#include "harness/fixtures/push_storage_fixtures.hpp"

namespace ssp::harness {
namespace {

using ::testing::ElementsAre;

class ReferenceAbsentRowScopes : public PushStorageTest {
 protected:
  // Every scope entry of partition acme, as "row:var=value", by row.
  std::vector<std::string> scope_entries() {
    return database().query_column(
        "SELECT row_id || ':' || var || '=' || value FROM sync_row_scopes "
        "WHERE partition = 'acme' ORDER BY row_id, var, value");
  }
};
SSP_SQL_BACKENDS(ReferenceAbsentRowScopes);

TEST_P(ReferenceAbsentRowScopes, PUSH_REF_8_ARowWrittenWhereNoneIsStoredHasOnlyItsOwnScopes) {
  record_spec("§2.2", "PUSH-REF-8");
  {
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    ASSERT_FALSE(tx->get_row("tasks", "t1").has_value());
    tx->upsert_row("tasks", task_row("t1", "p1", "one", false), 0);
    tx->commit();
  }
  EXPECT_THAT(scope_entries(), ElementsAre("t1:project_id=p1"));
  {
    auto tx = begin();
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    ASSERT_TRUE(tx->get_row("tasks", "t1").has_value());
    tx->delete_row("tasks", "t1");
    ASSERT_FALSE(tx->get_row("tasks", "t1").has_value());
    tx->upsert_row("tasks", task_row("t1", "p2", "again", false, 2), 0);
    ASSERT_FALSE(tx->get_row("tasks", "t3").has_value());
    tx->upsert_row("tasks", task_row("t3", "p3", "new", false), 1);
    // Written once in this transaction, t3 is stored now: a second write
    // replaces its entries.
    tx->upsert_row("tasks", task_row("t3", "p4", "moved", false, 2), 2);
    tx->commit();
  }
  EXPECT_THAT(scope_entries(), ElementsAre("t1:project_id=p2", "t3:project_id=p4"))
      << "each row holds the entries of its last write, none of an earlier one's";
  EXPECT_EQ(storage().get_row("acme", "tasks", "t1"), task_row("t1", "p2", "again", false, 2));
}

}  // namespace
}  // namespace ssp::harness
