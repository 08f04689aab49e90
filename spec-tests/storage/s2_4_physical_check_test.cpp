// The 0.22 same-version physical check (design/storage.md §2.2 step 5b, §4.4;
// §6 B-7; §8 Q1 and Q3): every table keeps its six storage-internal columns,
// and a materialized table its projection columns.
#include <gmock/gmock.h>

#include "harness/fixtures/storage_fixtures.hpp"

namespace ssp::harness {
namespace {

using storage::RefusalReason;
using storage::SchemaReport;
using ::testing::AllOf;
using ::testing::HasSubstr;

class PhysicalCheck : public StorageTest {};
SSP_SQL_BACKENDS(PhysicalCheck);

// The message names table and column in the layouts message's style (Q1): the
// two quoted tokens are what a candidate must match.
void expect_physical_refusal(const std::optional<storage::SchemaRefusal>& refusal,
                             const std::string& table, const std::string& column) {
  ASSERT_TRUE(refusal) << table << "." << column;
  EXPECT_EQ(refusal->reason(), RefusalReason::physical_mismatch);
  EXPECT_EQ(refusal->table(), table);
  EXPECT_EQ(refusal->column(), column);
  EXPECT_THAT(refusal->what(),
              AllOf(HasSubstr("table \"" + table + "\""), HasSubstr("column \"" + column + "\"")));
}

TEST_P(PhysicalCheck, B_7_EachMissingInternalColumnIsRefusedNamingTableAndColumn) {
  record_spec("§2.4", "B-7");
  for (const char* table : {"tasks", "notes"}) {
    // The internal columns of storage.md §1.1, spelled out here rather than
    // taken from the reference's own list.
    for (std::string_view column :
         {"_sync_partition", "_sync_row_id", "_sync_server_version", "_sync_scopes",
          "_sync_payload", "_sync_column_versions"}) {
      SCOPED_TRACE(std::string(table) + "." + std::string(column));
      auto db = fresh_database();
      open_on(*db)->ensure_schema(example_compiled());
      db->drop_column(table, std::string(column));
      const std::string before = db->dump_all_tables();
      expect_physical_refusal(refusal_of([&] { open_on(*db)->ensure_schema(example_compiled()); }),
                              table, std::string(column));
      EXPECT_EQ(db->dump_all_tables(), before);
    }
  }
}

TEST_P(PhysicalCheck, B_7_AbsentTableInStoredLayoutsIsRefused) {
  record_spec("§2.4", "B-7");
  storage().ensure_schema(example_compiled());
  database().exec("DROP TABLE notes");
  const std::string before = dump();
  expect_physical_refusal(refusal_of([&] { open()->ensure_schema(example_compiled()); }), "notes",
                          "_sync_partition");
  EXPECT_EQ(dump(), before);
}

// A complete copy of a configured table in PostgreSQL's `public` schema, the
// first place an unqualified name or an unfiltered catalog query finds it.
// Dropped again at scope end, whatever the test's outcome.
class PublicCopy {
 public:
  PublicCopy(TestDatabase& db, const std::string& table) : db_(db), table_(table) {
    db_.exec("CREATE TABLE public." + table_ + " (LIKE " + db_.location().pg_schema + "." +
             table_ + " INCLUDING ALL)");
  }
  ~PublicCopy() {
    try {
      db_.exec("DROP TABLE IF EXISTS public." + table_);
    } catch (...) {
      // The throwaway cluster goes with it.
    }
  }
  PublicCopy(const PublicCopy&) = delete;
  PublicCopy& operator=(const PublicCopy&) = delete;

 private:
  TestDatabase& db_;
  std::string table_;
};

TEST_P(PhysicalCheck, B_7_ASameNamedTableInPublicNeverCountsForTheConfiguredSchema) {
  record_spec("§2.4", "B-7");
  if (backend() != Backend::postgres) {
    GTEST_SKIP() << "PostgreSQL schemas only: a SQLite file has one table namespace per file";
  }
  // A name no other test uses (the test schema's own random name), so the
  // copy in public meets no other test running against the same cluster.
  const std::string table = "b7_" + database().location().pg_schema;
  const storage::CompiledSchema schema = compiled(schema_of(
      3, {{table, {{"id", storage::ColumnType::string, false},
                   {"body", storage::ColumnType::string, true}}}}));
  storage().ensure_schema(schema);
  const PublicCopy copy(database(), table);

  // An internal column, then the whole table: each missing here, while
  // public's copy has it. (A missing projection column is Q3's, a rule of
  // ours, so it is not asked here.)
  database().drop_column(table, "_sync_scopes");
  std::string before = dump();
  expect_physical_refusal(refusal_of([&] { open()->ensure_schema(schema); }), table,
                          "_sync_scopes");
  EXPECT_EQ(dump(), before);

  database().exec("DROP TABLE " + table);
  before = dump();
  expect_physical_refusal(refusal_of([&] { open()->ensure_schema(schema); }), table,
                          "_sync_partition");
  EXPECT_EQ(dump(), before);
}

TEST_P(PhysicalCheck, B_7_ExtraColumnsOrderTypeAndNullabilityAreNotChecked) {
  record_spec("§2.4", "B-7");
  storage().ensure_schema(example_compiled());
  database().exec("ALTER TABLE tasks ADD COLUMN operator_note TEXT");
  // _sync_scopes comes back last, as a nullable integer: only existence counts.
  database().drop_column("notes", "_sync_scopes");
  database().exec("ALTER TABLE notes ADD COLUMN _sync_scopes INTEGER");
  const std::string before = dump();
  EXPECT_TRUE(action_is(open()->ensure_schema(example_compiled()), SchemaReport::Action::verified));
  EXPECT_EQ(dump(), before);
}

TEST_P(PhysicalCheck, B_7_RunsOnlyAtTheSameVersionAndAfterTheLayoutComparison) {
  record_spec("§2.4", "B-7");
  storage().ensure_schema(example_compiled());
  database().drop_column("tasks", "_sync_column_versions");
  // A layout drift is reported first.
  storage::ServerSchema drifted = example_schema();
  drifted.tables[1].columns[2].nullable = false;
  const std::string before = dump();
  const auto first = refusal_of([&] { open()->ensure_schema(compiled(drifted)); });
  ASSERT_TRUE(first);
  EXPECT_EQ(first->reason(), RefusalReason::layouts_disagree);
  EXPECT_EQ(dump(), before);
  // A bump does not check, it migrates: the column comes back.
  EXPECT_TRUE(action_is(open()->ensure_schema(compiled(example_schema(), 4)),
                        SchemaReport::Action::migrated));
  EXPECT_THAT(database().column_names("tasks"), ::testing::Contains("_sync_column_versions"));
  EXPECT_TRUE(action_is(open()->ensure_schema(compiled(example_schema(), 4)),
                        SchemaReport::Action::verified));
}

TEST_P(PhysicalCheck, Q3_ProjectionColumnsOfMaterializedTablesAreRequiredAfterInternalOnes) {
  record_spec("§2.4", "Q3");
  storage().ensure_schema(example_compiled());
  database().drop_column("tasks", "meta");
  std::string before = dump();
  expect_physical_refusal(refusal_of([&] { open()->ensure_schema(example_compiled()); }), "tasks",
                          "meta");
  EXPECT_EQ(dump(), before);
  // Internal columns are reported first, in tableColumnNames order.
  database().drop_column("tasks", "_sync_payload");
  database().drop_column("tasks", "_sync_scopes");
  before = dump();
  expect_physical_refusal(refusal_of([&] { open()->ensure_schema(example_compiled()); }), "tasks",
                          "_sync_scopes");
  EXPECT_EQ(dump(), before);
}

}  // namespace
}  // namespace ssp::harness
