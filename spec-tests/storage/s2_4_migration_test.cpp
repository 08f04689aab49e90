// The migration subset for an absent or older marker (design/storage.md §3;
// §6 C-1 … C-6, C-10): retire, CREATE / ADD COLUMN, index rebuild, the
// append-only assertion, payload re-encode, marker last, all in one
// transaction.
#include <gmock/gmock.h>

#include "harness/fixtures/storage_fixtures.hpp"
#include "harness/util/require_found.hpp"

namespace ssp::harness {
namespace {

using storage::ColumnLayout;
using storage::ColumnType;
using storage::RefusalReason;
using storage::Row;
using storage::SchemaReport;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::UnorderedElementsAre;

constexpr const char* kDash = " \u2014 ";

storage::ServerSchema with_priority(bool nullable = true) {
  storage::ServerSchema schema = example_schema();
  schema.version = 4;
  schema.tables[0].columns.push_back({"priority", ColumnType::integer, nullable, {}, false, {}});
  return schema;
}

Row decoded(const storage::CompiledSchema& schema, const std::string& table,
            const storage::StoredRow& row) {
  return current_candidate().rows().decode(schema.find(table)->layout(), row.payload);
}

class Migration : public StorageTest {
 protected:
  // The example at version 3 with two tasks in two partitions and two notes.
  void seed() {
    storage().ensure_schema(example_compiled());
    storage().upsert_row("acme", "tasks", task_row("t1", "p1", "Write spec", false, 2));
    storage().upsert_row("globex", "tasks", task_row("t1", "p9", std::nullopt, true, 5));
    const auto notes = example_compiled().find("notes")->layout();
    storage().upsert_row(
        "acme", "notes",
        {"n1",
         1,
         {{"space_id", "s1"}},
         current_candidate().rows().encode(
             notes, {std::string("n1"), std::string("s1"), storage::Bytes{0xde, 0xad}})});
    storage().upsert_row(
        "globex", "notes",
        {"n2",
         3,
         {{"space_id", "s2"}},
         current_candidate().rows().encode(
             notes, {std::string("n2"), std::string("s2"), storage::RowValue{std::monostate{}}})});
  }
};
SSP_SQL_BACKENDS(Migration);

TEST_P(Migration, C_1_NullableAppendWithIndexChange) {
  record_spec("§2.4", "C-1");
  seed();
  const storage::StoredRow before =
      require_found(storage().get_row("acme", "tasks", "t1"), "get_row(acme tasks t1)");
  storage::ServerSchema bumped = with_priority();
  bumped.tables[0].indexes = {{"by_done", {"done"}, false}};
  auto migrated = open();
  const SchemaReport report = migrated->ensure_schema(compiled(bumped));
  EXPECT_TRUE(action_is(report, SchemaReport::Action::migrated));
  if (reported(report)) {
    EXPECT_EQ(report.stored_version, 3);
    EXPECT_EQ(report.rewritten_rows, 2);  // the two tasks; notes did not change
  }
  EXPECT_THAT(database().column_names("tasks"), Contains("priority"));
  EXPECT_EQ(database().index_names("tasks"), std::vector<std::string>{"sync_ix_by_done"});
  EXPECT_EQ(marker(), "4|" + compiled_layouts_json(bumped));
  const storage::StoredRow after =
      require_found(migrated->get_row("acme", "tasks", "t1"), "get_row(acme tasks t1)");
  EXPECT_EQ(after.server_version, before.server_version);
  EXPECT_EQ(after.scopes, before.scopes);
  Row expected = decoded(example_compiled(), "tasks", before);
  expected.emplace_back(std::monostate{});
  EXPECT_EQ(decoded(compiled(bumped), "tasks", after), expected);
  const Row projection = require_found(migrated->read_projection("acme", "tasks", "t1"),
                                       "read_projection(acme tasks t1)");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(projection.at(6)));
  EXPECT_EQ(std::get<std::string>(projection.at(2)), "Write spec");
  // The new column is nullable: a row written under V+1 without it is fine,
  // and one with it is projected.
  storage::Row with_value = expected;
  with_value[6] = std::int64_t{7};
  migrated->upsert_row(
      "acme", "tasks",
      {"t3",
       1,
       {{"project_id", "p1"}},
       current_candidate().rows().encode(compiled(bumped).find("tasks")->layout(), with_value)});
  EXPECT_EQ(std::get<std::int64_t>(require_found(migrated->read_projection("acme", "tasks", "t3"),
                                                 "read_projection(acme tasks t3)")
                                       .at(6)),
            7);
}

TEST_P(Migration, C_2_DroppedTableIsRetiredWithItsScopesAndBlobRefs) {
  record_spec("§2.4", "C-2");
  seed();
  database().exec(
      "INSERT INTO sync_blob_refs (partition, tbl, row_id, blob_id) VALUES "
      "('acme', 'notes', 'n1', 'sha256:aa'), ('acme', 'tasks', 't1', 'sha256:bb')");
  database().exec(
      "INSERT INTO sync_commits (partition, commit_seq, client_id, client_commit_id, actor_id, "
      "created_at_ms) VALUES ('acme', 1, 'c', 'k', 'a', 1)");
  database().exec(
      "CREATE TABLE operator_audit (note TEXT); INSERT INTO operator_audit VALUES ('kept')");
  storage::ServerSchema bumped = example_schema();
  bumped.version = 4;
  bumped.tables.pop_back();
  auto migrated = open();
  const SchemaReport report = migrated->ensure_schema(compiled(bumped));
  if (reported(report)) {
    EXPECT_EQ(report.retired_tables, std::vector<std::string>{"notes"});
  }
  EXPECT_TRUE(database().column_names("notes").empty());
  EXPECT_EQ(database().query_column("SELECT count(*) FROM sync_row_scopes WHERE tbl = 'notes'"),
            std::vector<std::string>{"0"});
  EXPECT_EQ(database().query_column("SELECT tbl FROM sync_blob_refs"),
            std::vector<std::string>{"tasks"});
  EXPECT_EQ(database().query_column("SELECT count(*) FROM sync_row_scopes WHERE tbl = 'tasks'"),
            std::vector<std::string>{"2"});
  EXPECT_TRUE(migrated->get_row("globex", "tasks", "t1"));
  EXPECT_EQ(database().query_column("SELECT note FROM operator_audit"),
            std::vector<std::string>{"kept"});
  EXPECT_EQ(database().query_column("SELECT count(*) FROM sync_commits"),
            std::vector<std::string>{"1"});
}

TEST_P(Migration, C_2_RetiredTablesAreDroppedInUtf16Order) {
  record_spec("§2.4", "C-2");
  // The drop order shows only in the report.
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::schema_reports);
  const ColumnLayout id{"id", ColumnType::string, false};
  const std::vector<std::string> names = {"b", "\xee\x80\x80x", "a", "\xf0\x9f\x98\x80", "keep"};
  std::vector<std::pair<std::string, std::vector<ColumnLayout>>> tables;
  for (const auto& name : names) tables.push_back({name, {id}});
  storage().ensure_schema(compiled(schema_of(1, tables)));
  const SchemaReport report = open()->ensure_schema(compiled(schema_of(2, {{"keep", {id}}})));
  // U+1F600 is a surrogate pair (D83D …) and sorts before U+E000 in UTF-16.
  EXPECT_THAT(report.retired_tables, ElementsAre("a", "b", "\xf0\x9f\x98\x80", "\xee\x80\x80x"));
}

TEST_P(Migration, C_3_NonAppendOnlyBumpsFailWithExactMessagesAndChangeNothing) {
  record_spec("§2.4", "C-3");
  seed();
  const std::string before = dump();
  const std::string prefix = "table \"tasks\": ";
  std::vector<std::pair<storage::ServerSchema, std::string>> cases;
  auto removed = example_schema();
  removed.tables[0].columns.pop_back();
  cases.emplace_back(removed, prefix + "the schema removed columns" + kDash +
                                  "only appending nullable columns is supported; indexes may be "
                                  "created, replaced, or dropped independently");
  auto renamed = example_schema();
  renamed.tables[0].columns[2].name = "heading";
  cases.emplace_back(
      renamed,
      prefix +
          R"(column 2 changed ({"name":"title","type":"string","nullable":true} → {"name":"heading","type":"string","nullable":true}))" +
          kDash + "only appending nullable columns is supported");
  auto retyped = example_schema();
  retyped.tables[0].columns[3].type = ColumnType::integer;
  cases.emplace_back(
      retyped,
      prefix +
          R"(column 3 changed ({"name":"done","type":"boolean","nullable":false} → {"name":"done","type":"integer","nullable":false}))" +
          kDash + "only appending nullable columns is supported");
  auto required = example_schema();
  required.tables[0].columns[2].nullable = false;
  cases.emplace_back(
      required,
      prefix +
          R"(column 2 changed ({"name":"title","type":"string","nullable":true} → {"name":"title","type":"string","nullable":false}))" +
          kDash + "only appending nullable columns is supported");
  cases.emplace_back(with_priority(false), prefix + "added column \"priority\" must be nullable" +
                                               kDash + "existing rows have no value to backfill");
  for (auto& [schema, message] : cases) {
    SCOPED_TRACE(message);
    schema.version = 4;
    const auto refusal = refusal_of([&] { open()->ensure_schema(compiled(schema)); });
    ASSERT_TRUE(refusal);
    EXPECT_EQ(refusal->reason(), RefusalReason::not_append_only);
    EXPECT_EQ(refusal->table(), "tasks");
    EXPECT_EQ(std::string(refusal->what()), message);
    EXPECT_EQ(dump(), before);
  }
  // The stored column object is quoted as stored (JSON.stringify of it).
  database().exec(
      R"(UPDATE sync_schema_meta SET layouts = '{"tasks":[{"name":"id","type":"string","nullable":false},{"name":"project_id","type":"string","nullable":false},{"nullable":true,"name":"title","type":"json","x":[1]}],"notes":[]}')");
  const auto stored_shape =
      refusal_of([&] { open()->ensure_schema(compiled(example_schema(), 4)); });
  ASSERT_TRUE(stored_shape);
  EXPECT_THAT(
      stored_shape->what(),
      HasSubstr(
          R"(column 2 changed ({"nullable":true,"name":"title","type":"json","x":[1]} → {"name":"title","type":"string","nullable":true}))"));
}

TEST_P(Migration, C_4_MaterializeOnBackfillsAndIndexesOffKeepsColumnsAndDropsIndexes) {
  record_spec("§2.4", "C-4");
  seed();
  storage::ServerSchema bumped = example_schema();
  bumped.version = 4;
  bumped.tables[1].materialize = true;
  bumped.tables[1].indexes = {{"by_space", {"space_id"}, false}};
  bumped.tables[0].materialize = false;
  auto migrated = open();
  const SchemaReport report = migrated->ensure_schema(compiled(bumped));
  if (reported(report)) {  // both notes, in both partitions
    EXPECT_EQ(report.rewritten_rows, 2);
  }
  EXPECT_THAT(database().column_names("notes"), Contains("body"));
  EXPECT_EQ(database().index_names("notes"), std::vector<std::string>{"sync_ix_by_space"});
  const Row n1 = require_found(migrated->read_projection("acme", "notes", "n1"),
                               "read_projection(acme notes n1)");
  EXPECT_EQ(n1, (Row{std::string("n1"), std::string("s1"), storage::Bytes{0xde, 0xad}}));
  const Row n2 = require_found(migrated->read_projection("globex", "notes", "n2"),
                               "read_projection(globex notes n2)");
  EXPECT_EQ(n2, (Row{std::string("n2"), std::string("s2"), storage::RowValue{std::monostate{}}}));
  // tasks: stale projection columns stay, owned indexes go, none come back.
  EXPECT_THAT(database().column_names("tasks"), Contains("title"));
  EXPECT_TRUE(database().index_names("tasks").empty());
  EXPECT_EQ(database().query_column("SELECT title FROM tasks WHERE _sync_partition = 'acme'"),
            std::vector<std::string>{"Write spec"});
}

TEST_P(Migration, C_5_IndexRebuildKeepsOperatorIndexesAndMovesNames) {
  record_spec("§2.4", "C-5");
  const ColumnLayout id{"id", ColumnType::string, false};
  const ColumnLayout x{"x", ColumnType::string, true};
  storage::ServerSchema v1 = schema_of(1, {{"alpha", {id, x}}, {"beta", {id, x}}});
  v1.tables[0].indexes = {{"moving", {"x"}, false}, {"kept", {"x"}, false}};
  storage().ensure_schema(compiled(v1));
  database().exec("CREATE INDEX operator_idx ON alpha (x)");
  database().exec("DROP INDEX sync_ix_kept; CREATE INDEX kept ON alpha (x)");  // pre-prefix name
  if (backend() == Backend::postgres) {
    database().exec(
        "ALTER TABLE alpha ADD CONSTRAINT alpha_unique UNIQUE (_sync_partition, _sync_row_id, x)");
  }
  storage::ServerSchema v2 = schema_of(2, {{"alpha", {id, x}}, {"beta", {id, x}}});
  v2.tables[0].indexes = {{"kept", {"x"}, true}};
  v2.tables[1].indexes = {{"moving", {"x"}, false}};
  open()->ensure_schema(compiled(v2));
  EXPECT_THAT(database().index_names("alpha"), ElementsAre("operator_idx", "sync_ix_kept"));
  EXPECT_THAT(database().index_names("beta"), ElementsAre("sync_ix_moving"));
  if (backend() == Backend::postgres) {
    EXPECT_THAT(dump(), HasSubstr("alpha_unique"));
  }
}

TEST_P(Migration, C_6_PreMarkerDatabaseGetsColumnsAndMarkerWithoutRewrite) {
  record_spec("§2.4", "C-6");
  seed();
  const storage::StoredRow before =
      require_found(storage().get_row("acme", "tasks", "t1"), "get_row(acme tasks t1)");
  for (const char* forget : {"DELETE FROM sync_schema_meta", "DROP TABLE sync_schema_meta"}) {
    SCOPED_TRACE(forget);
    database().exec(forget);
    storage::ServerSchema bumped = with_priority();
    bumped.version += std::string(forget).rfind("DROP", 0) == 0 ? 1 : 0;
    auto migrated = open();
    const SchemaReport report = migrated->ensure_schema(compiled(bumped));
    EXPECT_TRUE(action_is(report, SchemaReport::Action::migrated));
    if (reported(report)) {
      EXPECT_FALSE(report.stored_version);
      EXPECT_EQ(report.rewritten_rows, 0);
    }
    EXPECT_THAT(database().column_names("tasks"), Contains("priority"));
    EXPECT_EQ(
        require_found(migrated->get_row("acme", "tasks", "t1"), "get_row(acme tasks t1)").payload,
        before.payload);  // not rewritten
    EXPECT_EQ(marker(), std::to_string(bumped.version) + "|" + compiled_layouts_json(bumped));
  }
}

TEST_P(Migration, C_10_LongIndexNamesBecomeAStableHash) {
  record_spec("§2.4", "C-10");
  // Physical names as the candidate creates them. The hashed ones are
  // "sync_ix_" + the 64-bit FNV-1a of the declared name in hex, computed for
  // these literals with a few lines of Python outside the code under test
  // (h = 0xcbf29ce484222325; per byte h = ((h ^ b) * 0x100000001b3) mod 2^64).
  const std::string fits(55, 'a');  // "sync_ix_" + 55 bytes: 63, PostgreSQL's limit
  const std::string too_long(56, 'a');
  const std::string long_name = "index_with_a_rather_long_declared_name_that_cannot_fit_in_pg";
  storage::ServerSchema schema = example_schema();
  schema.tables[0].indexes.push_back({fits, {"title"}, false});
  schema.tables[0].indexes.push_back({too_long, {"done"}, false});
  schema.tables[0].indexes.push_back({long_name, {"title", "done"}, false});
  const auto expected = UnorderedElementsAre("sync_ix_" + fits, "sync_ix_956c5576914f6c3d",
                                             "sync_ix_25b6c991c8aaadb9", "sync_ix_by_project");
  storage().ensure_schema(compiled(schema));
  EXPECT_THAT(database().index_names("tasks"), expected);
  // The same names on a later bump: dropped and re-created, still one index each.
  schema.version = 4;
  open()->ensure_schema(compiled(schema));
  EXPECT_THAT(database().index_names("tasks"), expected);
}

TEST_P(Migration, AT_1_DatabaseFailureMidMigrationRollsEverythingBack) {
  record_spec("§2.4", "AT-1");
  seed();
  storage().upsert_row("acme", "tasks", task_row("t2", "p1", "same", false));
  const std::string before = dump();
  // The column is added and the payloads re-encoded before the unique index
  // meets two equal values and fails: all of it must roll back.
  storage::ServerSchema bumped = with_priority();
  bumped.tables[0].indexes.push_back({"one_per_done", {"done"}, true});
  EXPECT_THROW(open()->ensure_schema(compiled(bumped)), StorageError);
  EXPECT_EQ(dump(), before);
  EXPECT_TRUE(action_is(open()->ensure_schema(example_compiled()), SchemaReport::Action::verified));
}

TEST_P(Migration, AT_2_UndecodableStoredPayloadRefusesTheMigration) {
  record_spec("§2.4", "AT-2");
  seed();
  // What 0.22 exists to prevent: a 0.21-style start with other layouts at the
  // same version writes a row the stored layouts cannot decode.
  storage::ServerSchema other_build = example_schema();
  other_build.tables[0].columns[2].type = ColumnType::integer;
  storage::ServerStorageOptions v0_21;
  v0_21.compatibility = storage::Compatibility::v0_21;
  auto careless = open(v0_21);
  careless->ensure_schema(compiled(other_build));
  const auto layout = compiled(other_build).find("tasks")->layout();
  careless->upsert_row(
      "acme", "tasks",
      {"bad",
       1,
       {{"project_id", "p1"}},
       current_candidate().rows().encode(
           layout, {std::string("bad"), std::string("p1"), std::int64_t{5}, false,
                    storage::RowValue{std::monostate{}}, storage::RowValue{std::monostate{}}})});
  const std::string before = dump();
  const auto refusal = refusal_of([&] { open()->ensure_schema(compiled(with_priority())); });
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->reason(), RefusalReason::row_undecodable);
  EXPECT_EQ(refusal->table(), "tasks");
  EXPECT_THAT(refusal->what(), HasSubstr("row \"bad\" in partition \"acme\""));
  EXPECT_EQ(dump(), before);
}

TEST_P(Migration, PV_1_PreviewReportsTheMigrationAndChangesNothing) {
  record_spec("§2.4", "PV-1");
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::schema_reports);
  seed();
  const std::string before = dump();
  auto previewing = open();
  const SchemaReport preview = previewing->preview_schema(compiled(with_priority()));
  EXPECT_EQ(preview.action, SchemaReport::Action::migrated);
  EXPECT_EQ(preview.rewritten_rows, 2);
  EXPECT_THAT(preview.statements, Contains(HasSubstr("ADD COLUMN \"priority\"")));
  EXPECT_EQ(dump(), before);
  EXPECT_THROW(previewing->get_row("acme", "tasks", "t1"), storage::UnknownTable);
  const auto refusal =
      refusal_of([&] { previewing->preview_schema(compiled(example_schema(), 2)); });
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->reason(), RefusalReason::stored_newer);
  EXPECT_EQ(dump(), before);
  // The real run does what the preview said.
  EXPECT_EQ(previewing->ensure_schema(compiled(with_priority())), preview);
}

}  // namespace
}  // namespace ssp::harness
