// The server schema-version marker and the startup sequence around it
// (design/storage.md §2.1–§2.3, §6 B-1 … B-4, B-8, B-9, B-11, B-12, §8 Q5).
// Q6, two startups at once, is a race: spec-tests/races/schedules/concurrent_startups.schedule.
// B-10, the reference's readiness wrapper, is a self-test
// (self-tests/server_readiness_test.cpp).
#include <gmock/gmock.h>

#include "harness/fixtures/storage_fixtures.hpp"
#include "ssp/values/safe_integer.hpp"

namespace ssp::harness {
namespace {

using storage::RefusalReason;
using storage::SchemaReport;
using storage::UnknownTable;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kUnknownTasks =
    "unknown table \"tasks\" \u2014 ensureSchema(schema) must run before row operations";

std::string newer_message(std::int64_t stored, std::int64_t configured) {
  return "stored schema version " + std::to_string(stored) +
         " is newer than the configured schema (" + std::to_string(configured) +
         ") \u2014 refusing to run an older server against a migrated database";
}

// Every row operation on `storage` refuses `tasks` as an unknown table.
void expect_unusable(storage::ServerStorage& storage) {
  try {
    storage.get_row("acme", "tasks", "t1");
    ADD_FAILURE() << "get_row served an unknown table";
  } catch (const UnknownTable& error) {
    EXPECT_EQ(std::string(error.what()), kUnknownTasks);
  }
  EXPECT_THROW(storage.upsert_row("acme", "tasks", task_row("t1", "p1", "x", false)), UnknownTable);
  EXPECT_THROW(storage.read_projection("acme", "tasks", "t1"), UnknownTable);
}

class Marker : public StorageTest {};
SSP_SQL_BACKENDS(Marker);

TEST_P(Marker, B_1_FreshDatabaseGetsMarkerTablesAndIndexes) {
  record_spec("§2.4", "B-1");
  const SchemaReport report = storage().ensure_schema(example_compiled());
  EXPECT_TRUE(action_is(report, SchemaReport::Action::migrated));
  if (reported(report)) {
    EXPECT_FALSE(report.stored_version);
  }
  EXPECT_EQ(database().query_column("SELECT id FROM sync_schema_meta"),
            std::vector<std::string>{"1"});
  EXPECT_EQ(marker(), "3|" + kExampleLayoutsJson);
  EXPECT_THAT(database().column_names("tasks"),
              ElementsAre("_sync_partition", "_sync_row_id", "id", "project_id", "title", "done",
                          "meta", "doc", "_sync_server_version", "_sync_scopes", "_sync_payload",
                          "_sync_column_versions"));
  EXPECT_THAT(database().column_names("notes"),
              ElementsAre("_sync_partition", "_sync_row_id", "_sync_server_version", "_sync_scopes",
                          "_sync_payload", "_sync_column_versions"));
  EXPECT_THAT(database().index_names("tasks"), ElementsAre("sync_ix_by_project"));
  EXPECT_THAT(database().index_names("notes"), ElementsAre());
  for (const char* core :
       {"sync_partitions", "sync_partition_registry", "sync_row_scopes", "sync_commits",
        "sync_changes", "sync_change_scopes", "sync_push_results", "sync_reactions", "sync_clients",
        "sync_blob_refs", "sync_tombstones"}) {
    EXPECT_FALSE(database().column_names(core).empty()) << core;
  }
  // NOT NULL exactly where the schema says so: a NULL title is stored, a NULL
  // done is refused by the database itself.
  storage().upsert_row("acme", "tasks", task_row("t1", "p1", std::nullopt, false));
  EXPECT_THROW(database().exec("UPDATE tasks SET done = NULL"), std::exception);
}

TEST_P(Marker, B_2_ReopenWithTheSameSchemaChangesNothingAndKeepsRows) {
  record_spec("§2.4", "B-2");
  storage().ensure_schema(example_compiled());
  const storage::StoredRow row = task_row("t1", "p1", "Write spec", true, 4);
  storage().upsert_row("acme", "tasks", row);
  const std::string before = dump();
  const std::string marker_before = marker();
  const SchemaReport report = reopen().ensure_schema(example_compiled());
  EXPECT_TRUE(action_is(report, SchemaReport::Action::verified));
  if (reported(report)) {
    EXPECT_EQ(report.stored_version, 3);
    EXPECT_TRUE(report.statements.empty());
  }
  EXPECT_EQ(marker(), marker_before);
  EXPECT_EQ(dump(), before);
  EXPECT_EQ(storage().get_row("acme", "tasks", "t1"), row);
}

TEST_P(Marker, B_3_NewerStoredVersionIsRefusedWithTheExactMessage) {
  record_spec("§2.4", "B-3");
  storage().ensure_schema(example_compiled());
  storage().upsert_row("acme", "tasks", task_row("t1", "p1", "x", false));
  const std::string before = dump();
  storage::ServerSchema older = example_schema();
  older.version = 2;
  older.tables.push_back(older.tables[1]);
  older.tables.back().name = "added_in_2";
  auto fresh = open();
  const auto refusal = refusal_of([&] { fresh->ensure_schema(compiled(older)); });
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->reason(), RefusalReason::stored_newer);
  EXPECT_EQ(std::string(refusal->what()), newer_message(3, 2));
  EXPECT_EQ(dump(), before);  // no app DDL, marker unchanged
  expect_unusable(*fresh);
}

TEST_P(Marker, B_4_SameVersionWithEqualLayoutsAndCompleteTablesWritesNothing) {
  record_spec("§2.4", "B-4");
  storage().ensure_schema(example_compiled());
  const std::string before = dump();
  for (int i = 0; i < 2; ++i) {
    const SchemaReport report = open()->ensure_schema(example_compiled());
    EXPECT_TRUE(action_is(report, SchemaReport::Action::verified));
    if (reported(report)) {
      EXPECT_TRUE(report.statements.empty());
      EXPECT_EQ(report.rewritten_rows, 0);
    }
    EXPECT_EQ(dump(), before);
  }
}

TEST_P(Marker, B_8_EveryRefusalIsSideEffectFreeAndLeavesTheStorageUnusable) {
  record_spec("§2.4", "B-8");
  storage().ensure_schema(example_compiled());
  storage().upsert_row("acme", "tasks", task_row("t1", "p1", "x", false));
  storage::ServerSchema renamed = example_schema();
  renamed.tables[0].columns[2].name = "heading";
  const std::vector<std::pair<RefusalReason, std::function<void()>>> refusals = {
      {RefusalReason::stored_newer, [] {}},
      {RefusalReason::layouts_disagree, [] {}},
      {RefusalReason::physical_mismatch,
       [this] { database().drop_column("notes", "_sync_scopes"); }},
  };
  for (const auto& [reason, prepare] : refusals) {
    prepare();
    const std::string before = dump();
    auto fresh = open();
    const storage::CompiledSchema schema =
        reason == RefusalReason::stored_newer       ? compiled(example_schema(), 1)
        : reason == RefusalReason::layouts_disagree ? compiled(renamed)
                                                    : example_compiled();
    const auto refusal = refusal_of([&] { fresh->ensure_schema(schema); });
    ASSERT_TRUE(refusal) << storage::refusal_reason_name(reason);
    EXPECT_EQ(refusal->reason(), reason);
    EXPECT_EQ(dump(), before);
    expect_unusable(*fresh);
  }
  // A storage that succeeded before keeps serving that schema after a refusal
  // (a rename is not an append-only bump).
  const std::string before = dump();
  const auto refusal = refusal_of([&] { storage().ensure_schema(compiled(renamed, 4)); });
  ASSERT_TRUE(refusal);
  EXPECT_EQ(dump(), before);
  EXPECT_EQ(refusal->reason(), RefusalReason::not_append_only);
  EXPECT_TRUE(storage().get_row("acme", "tasks", "t1"));
}

TEST_P(Marker, B_9_MemoReturnsWithoutReadingTheDatabase) {
  record_spec("§2.4", "B-9");
  EXPECT_TRUE(
      action_is(storage().ensure_schema(example_compiled()), SchemaReport::Action::migrated));
  // Make any real check fail: the marker now claims a newer version.
  database().exec("UPDATE sync_schema_meta SET schema_version = 99");
  storage::ServerSchema other_object = example_schema();
  other_object.tables[0].indexes.push_back({"by_title", {"title"}, false});  // layouts unchanged
  const SchemaReport report = storage().ensure_schema(compiled(other_object));
  EXPECT_TRUE(action_is(report, SchemaReport::Action::memoized));
  EXPECT_NO_THROW(storage().get_row("acme", "tasks", "t1"));
  // A new storage does read, and refuses.
  const std::string before = dump();
  EXPECT_TRUE(refusal_of([&] { open()->ensure_schema(example_compiled()); }));
  EXPECT_EQ(dump(), before);
}

TEST_P(Marker, Q5_MemoKeysOnTheLayoutsNotTheVersionAlone) {
  record_spec("§2.4", "Q5");
  storage().ensure_schema(example_compiled());
  storage::ServerSchema drifted = example_schema();
  drifted.tables[0].columns[2].nullable = false;  // same version 3, other layouts
  const std::string before = dump();
  const auto refusal = refusal_of([&] { storage().ensure_schema(compiled(drifted)); });
  ASSERT_TRUE(refusal) << "a same-version schema with other layouts must be checked, not memoized";
  EXPECT_EQ(refusal->reason(), RefusalReason::layouts_disagree);
  EXPECT_EQ(refusal->column(), "title");
  EXPECT_EQ(dump(), before);
  // The storage keeps serving the schema it ensured.
  storage().upsert_row("acme", "tasks", task_row("t1", "p1", std::nullopt, false));
  EXPECT_TRUE(storage().get_row("acme", "tasks", "t1"));
}

TEST_P(Marker, B_11_RefusalDependsOnlyOnTheMarker) {
  record_spec("§2.4", "B-11");
  storage().ensure_schema(example_compiled());
  // "Another build" wrote the marker: same version, other layouts, while the
  // physical tables still match the configured schema exactly.
  storage::ServerSchema other_build = example_schema();
  other_build.tables[1].columns[2].type = storage::ColumnType::string;
  other_build.tables[1].columns[2].encrypted = false;
  database().exec("UPDATE sync_schema_meta SET layouts = '" + compiled_layouts_json(other_build) +
                  "'");
  const std::string before = dump();
  const auto refusal = refusal_of([&] { open()->ensure_schema(example_compiled()); });
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->reason(), RefusalReason::layouts_disagree);
  EXPECT_THAT(refusal->what(), HasSubstr("(table \"notes\" column \"body\")"));
  EXPECT_EQ(dump(), before);
}

TEST_P(Marker, B_12_VersionEqualityIsNumeric) {
  record_spec("§2.4", "B-12");
  storage().ensure_schema(compiled(example_schema(), 10));
  std::string before = dump();
  // As text "10" < "9"; as numbers 10 > 9.
  const auto refusal = refusal_of([&] { open()->ensure_schema(compiled(example_schema(), 9)); });
  ASSERT_TRUE(refusal);
  EXPECT_EQ(std::string(refusal->what()), newer_message(10, 9));
  EXPECT_EQ(dump(), before);
  constexpr std::int64_t kMax = kMaxSafeInteger;
  database().exec("UPDATE sync_schema_meta SET schema_version = " + std::to_string(kMax));
  EXPECT_TRUE(action_is(open()->ensure_schema(compiled(example_schema(), kMax)),
                        SchemaReport::Action::verified));
  before = dump();
  const auto below =
      refusal_of([&] { open()->ensure_schema(compiled(example_schema(), kMax - 1)); });
  ASSERT_TRUE(below);
  EXPECT_EQ(std::string(below->what()), newer_message(kMax, kMax - 1));
  EXPECT_EQ(dump(), before);
}

}  // namespace
}  // namespace ssp::harness
