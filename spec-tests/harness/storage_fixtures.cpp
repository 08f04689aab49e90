#include "harness/storage_fixtures.hpp"

#include "harness/backend_gate.hpp"
#include "harness/require_found.hpp"

namespace ssp::harness {

using storage::Column;
using storage::ColumnType;
using storage::CompiledSchema;
using storage::ServerSchema;
using storage::TableSchema;

ServerSchema example_schema() {
  TableSchema tasks;
  tasks.name = "tasks";
  tasks.columns = {
      {"id", ColumnType::string, false, {}, false, {}},
      {"project_id", ColumnType::string, false, {}, false, {}},
      {"title", ColumnType::string, true, {}, false, {}},
      {"done", ColumnType::boolean, false, {}, false, {}},
      {"meta", ColumnType::json, true, {}, false, {}},
      {"doc", ColumnType::crdt, true, "yjs-doc", false, {}},
  };
  tasks.primary_key = "id";
  tasks.scopes = {{"project:{project_id}", std::nullopt}};
  tasks.indexes = {{"by_project", {"project_id"}, false}};

  TableSchema notes;
  notes.name = "notes";
  notes.columns = {
      {"id", ColumnType::string, false, {}, false, {}},
      {"space_id", ColumnType::string, false, {}, false, {}},
      {"body", ColumnType::bytes, true, {}, true, "string"},
  };
  notes.primary_key = "id";
  notes.scopes = {{"space:{space_id}", std::nullopt}};

  return ServerSchema{3, {tasks, notes}};
}

ServerSchema schema_of(
    std::int64_t version,
    const std::vector<std::pair<std::string, std::vector<storage::ColumnLayout>>>& tables) {
  ServerSchema schema{version, {}};
  for (const auto& [name, columns] : tables) {
    TableSchema table;
    table.name = name;
    for (const auto& column : columns) {
      table.columns.push_back(
          {column.name,
           column.type,
           column.nullable,
           column.type == ColumnType::crdt ? std::optional<std::string>("crdt") : std::nullopt,
           false,
           {}});
    }
    table.primary_key = columns.front().name;
    table.scopes = {{"k:{" + columns.front().name + "}", std::nullopt}};
    schema.tables.push_back(std::move(table));
  }
  return schema;
}

const std::string kExampleLayoutsJson =
    R"({"tasks":[{"name":"id","type":"string","nullable":false},{"name":"project_id","type":"string","nullable":false},)"
    R"({"name":"title","type":"string","nullable":true},{"name":"done","type":"boolean","nullable":false},)"
    R"({"name":"meta","type":"json","nullable":true},{"name":"doc","type":"crdt","nullable":true}],)"
    R"("notes":[{"name":"id","type":"string","nullable":false},{"name":"space_id","type":"string","nullable":false},)"
    R"({"name":"body","type":"bytes","nullable":true}]})";

// Compiled by the candidate under test: a conformance test never takes its
// inputs or expected values from the reference's own rules (TRACE-9).
CompiledSchema example_compiled() { return compiled(example_schema()); }

CompiledSchema compiled(ServerSchema schema, std::int64_t version) {
  schema.version = version;
  return compiled(schema);
}

CompiledSchema compiled(const ServerSchema& schema) {
  return current_candidate().schema().compile(schema).schema;
}

std::string compiled_layouts_json(const ServerSchema& schema) {
  return current_candidate().schema().compile(schema).layouts_json;
}

storage::StoredRow task_row(const std::string& id, const std::string& project,
                            std::optional<std::string> title, bool done,
                            std::int64_t server_version) {
  const CompiledSchema schema = example_compiled();
  storage::Row values = {id,
                         project,
                         storage::RowValue{std::monostate{}},
                         done,
                         storage::RowValue{std::monostate{}},
                         storage::RowValue{std::monostate{}}};
  if (title) values[2] = *title;
  return storage::StoredRow{
      id,
      server_version,
      {{"project_id", project}},
      current_candidate().rows().encode(schema.find("tasks")->layout(), values)};
}

std::optional<storage::SchemaRefusal> refusal_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const storage::SchemaRefusal& refusal) {
    return refusal;
  }
  return std::nullopt;
}

void StorageTest::SetUp() {
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::server_storage);
  // Schemas are compiled and rows encoded by the candidate's own rules.
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::schema);
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::rows);
  SSP_SKIP_UNLESS_BACKEND_READY(candidate(), backend());
  database_ = create_test_database(backend());
}

std::unique_ptr<storage::ServerStorage> StorageTest::open(
    const storage::ServerStorageOptions& options) {
  return open_on(*database_, options);
}

storage::ServerStorage& StorageTest::storage() {
  if (!storage_) storage_ = open();
  return *storage_;
}

storage::ServerStorage& StorageTest::reopen() {
  storage_.reset();
  return storage();
}

void StorageTest::load_fixture(const std::string& fixtures_dir, const std::string& name) {
  database_->exec(read_text_file(fixtures_dir + "/" + name + "." +
                                 std::string(backend_name(backend())) + ".sql"));
}

std::unique_ptr<storage::ServerStorage> StorageTest::open_on(
    TestDatabase& other, const storage::ServerStorageOptions& options) {
  return require_opened(candidate().open_server_storage(other.location(), options),
                        "server storage");
}

std::string StorageTest::marker() { return marker_text(*database_); }

std::string marker_text(TestDatabase& db) {
  if (db.column_names("sync_schema_meta").empty()) return "";
  const auto rows = db.query_column(
      "SELECT CAST(schema_version AS TEXT) || '|' || layouts FROM sync_schema_meta WHERE id = 1");
  return rows.empty() ? "" : rows.front();
}

std::string storage_param_name(const ::testing::TestParamInfo<Backend>& info) {
  return std::string(backend_name(info.param));
}

}  // namespace ssp::harness
