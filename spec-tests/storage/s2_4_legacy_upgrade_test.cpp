// Databases left by earlier releases (fixtures/storage): 0.21 served as is,
// 0.20 refused at its version and upgraded by a bump (design/storage.md §6
// C-7, C-8 and the fixture checks FX-1, FX-2).
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include "harness/fixtures/storage_fixtures.hpp"
#include "harness/data/data_directory.hpp"
#include "harness/util/require_found.hpp"

namespace ssp::harness {
namespace {

using storage::RefusalReason;
using storage::SchemaReport;
using ::testing::Contains;
using ::testing::Not;

// The legacy databases and their rows, in the data directory.
std::string storage_fixtures() { return data_path("fixtures/storage").string(); }

struct FixtureRow {
  std::string partition;
  std::string table;
  storage::StoredRow row;
};

// The rows the fixture scripts hold, from payloads.json (encoded by the
// generator, independently of the C++ codec); scopes from the schema.
std::vector<FixtureRow> fixture_rows() {
  const auto rows = nlohmann::json::parse(read_text_file(storage_fixtures() + "/payloads.json"));
  std::vector<FixtureRow> out;
  for (const auto& row : rows) {
    const std::string hex = row["payload"];
    storage::Bytes payload;
    for (std::size_t i = 0; i < hex.size(); i += 2) {
      payload.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    }
    FixtureRow fixture{row["partition"], row["table"], {}};
    fixture.row.row_id = row["rowId"];
    fixture.row.server_version = row["serverVersion"];
    fixture.row.payload = std::move(payload);
    const auto values = current_candidate().rows().decode(
        example_compiled().find(fixture.table)->layout(), fixture.row.payload);
    fixture.row.scopes = {{fixture.table == "tasks" ? "project_id" : "space_id",
                           std::get<std::string>(values.at(1))}};
    out.push_back(std::move(fixture));
  }
  return out;
}

std::string commit_log(TestDatabase& db) {
  std::string out;
  for (const auto& line : db.query_column(
           "SELECT partition || ':' || CAST(commit_seq AS TEXT) || ':' || tbl || ':' || row_id "
           "FROM sync_changes ORDER BY partition, commit_seq")) {
    out += line + "\n";
  }
  return out;
}

class LegacyUpgrade : public StorageTest {};
SSP_SQL_BACKENDS(LegacyUpgrade);

TEST_P(LegacyUpgrade, FX_1_A0_21DatabaseIsServedAtItsVersion) {
  record_spec("§2.4", "FX-1");
  load_fixture(storage_fixtures(), "v0_21");
  const auto schema =
      current_candidate().schema().parse(read_text_file(storage_fixtures() + "/example_v3.schema.json"));
  EXPECT_EQ(marker(), "3|" + kExampleLayoutsJson);
  const SchemaReport report = storage().ensure_schema(compiled(schema));
  EXPECT_TRUE(action_is(report, SchemaReport::Action::verified));
  if (reported(report)) {
    EXPECT_TRUE(report.statements.empty());
  }
  for (const FixtureRow& fixture : fixture_rows()) {
    SCOPED_TRACE(fixture.partition + "/" + fixture.table + "/" + fixture.row.row_id);
    EXPECT_EQ(storage().get_row(fixture.partition, fixture.table, fixture.row.row_id), fixture.row);
  }
  // The generator's payloads decode to the values it was given.
  const auto t1 = current_candidate().rows().decode(
      example_compiled().find("tasks")->layout(),
      require_found(storage().get_row("globex", "tasks", "t1"), "get_row(globex tasks t1)")
          .payload);
  EXPECT_EQ(std::get<std::string>(t1[2]), "Ünïcode ✓");
  EXPECT_EQ(std::get<std::string>(t1[4]), "[1,2]");
  EXPECT_EQ(storage().read_projection("acme", "tasks", "t2"),
            (storage::Row{std::string("t2"), std::string("p1"), storage::RowValue{std::monostate{}},
                          true, storage::RowValue{std::monostate{}}, storage::Bytes{1, 2}}));
}

TEST_P(LegacyUpgrade, C_7_SyncClientsWithoutWireVersionGetsItWithDefaultOne) {
  record_spec("§2.4", "C-7");
  database().exec(
      "CREATE TABLE sync_clients (partition TEXT NOT NULL, client_id TEXT NOT NULL, "
      "actor_id TEXT NOT NULL, cursor BIGINT NOT NULL, subscriptions TEXT NOT NULL, "
      "updated_at_ms BIGINT NOT NULL, PRIMARY KEY (partition, client_id));"
      "INSERT INTO sync_clients VALUES ('acme', 'client-1', 'actor-1', 7, '[]', 1)");
  storage().ensure_schema(example_compiled());
  EXPECT_THAT(database().column_names("sync_clients"), Contains("wire_version"));
  EXPECT_EQ(
      database().query_column("SELECT wire_version FROM sync_clients WHERE client_id = 'client-1'"),
      std::vector<std::string>{"1"});
  // Idempotent: a second startup leaves it alone.
  const std::string before = dump();
  open()->ensure_schema(example_compiled());
  EXPECT_EQ(dump(), before);
}

TEST_P(LegacyUpgrade, C_8_A0_20DatabaseIsRefusedAtItsVersionAndUpgradedByABump) {
  record_spec("§2.4", "C-8");
  load_fixture(storage_fixtures(), "v0_20");
  EXPECT_THAT(database().column_names("tasks"), Not(Contains("_sync_column_versions")));
  const std::string before = dump();
  const std::string log_before = commit_log(database());
  const auto refusal = refusal_of([&] { open()->ensure_schema(example_compiled()); });
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->reason(), RefusalReason::physical_mismatch);
  EXPECT_EQ(refusal->table(), "tasks");
  EXPECT_EQ(refusal->column(), "_sync_column_versions");
  EXPECT_EQ(dump(), before);

  const SchemaReport report = storage().ensure_schema(compiled(example_schema(), 4));
  EXPECT_TRUE(action_is(report, SchemaReport::Action::migrated));
  // Unchanged tables: no payload touched.
  if (reported(report)) {
    EXPECT_EQ(report.rewritten_rows, 0);
  }
  for (const char* table : {"tasks", "notes"}) {
    EXPECT_THAT(database().column_names(table), Contains("_sync_column_versions")) << table;
  }
  for (const FixtureRow& fixture : fixture_rows()) {
    EXPECT_EQ(storage().get_row(fixture.partition, fixture.table, fixture.row.row_id), fixture.row);
  }
  EXPECT_EQ(commit_log(database()), log_before);
  EXPECT_TRUE(action_is(reopen().ensure_schema(compiled(example_schema(), 4)),
                        SchemaReport::Action::verified));
}

TEST_P(LegacyUpgrade, FX_2_A0_21DatabaseMigratesAnAppendAndKeepsEveryRow) {
  record_spec("§2.4", "FX-2");
  load_fixture(storage_fixtures(), "v0_21");
  const std::string log_before = commit_log(database());
  storage::ServerSchema bumped = example_schema();
  bumped.version = 4;
  bumped.tables[1].columns.push_back({"pinned", storage::ColumnType::boolean, true, {}, false, {}});
  const SchemaReport report = storage().ensure_schema(compiled(bumped));
  if (reported(report)) {  // the two notes
    EXPECT_EQ(report.rewritten_rows, 2);
  }
  for (const FixtureRow& fixture : fixture_rows()) {
    const storage::StoredRow row =
        require_found(storage().get_row(fixture.partition, fixture.table, fixture.row.row_id),
                      "get_row of fixture row " + fixture.row.row_id);
    EXPECT_EQ(row.server_version, fixture.row.server_version);
    EXPECT_EQ(row.scopes, fixture.row.scopes);
    auto expected = current_candidate().rows().decode(
        example_compiled().find(fixture.table)->layout(), fixture.row.payload);
    if (fixture.table == "notes") expected.emplace_back(std::monostate{});
    EXPECT_EQ(current_candidate().rows().decode(compiled(bumped).find(fixture.table)->layout(),
                                                row.payload),
              expected);
  }
  EXPECT_EQ(commit_log(database()), log_before);
  EXPECT_EQ(database().query_column("SELECT count(*) FROM sync_blob_refs"),
            std::vector<std::string>{"1"});
}

}  // namespace
}  // namespace ssp::harness
