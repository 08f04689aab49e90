// Schema IR compile rules (design/storage.md §1.1, SSP2 §2.4 and §3.1) and
// the schema's JSON form (docs/storage.md). Requirements IR-1 … IR-9. Pure.
#include <gmock/gmock.h>

#include "harness/spec.hpp"
#include "harness/storage_fixtures.hpp"
#include "ssp/storage/schema.hpp"
#include "ssp/storage/schema_json.hpp"
#include "ssp/storage/storage_errors.hpp"

#ifndef SSP_SOURCE_DIR
#error "SSP_SOURCE_DIR must point at the source tree"
#endif

namespace ssp::harness {
namespace {

using storage::ColumnType;
using storage::compile_schema;
using storage::SchemaError;
using storage::ServerSchema;
using storage::TableSchema;
using ::testing::AllOf;
using ::testing::HasSubstr;

TableSchema valid_table(const std::string& name = "items") {
  TableSchema table;
  table.name = name;
  table.columns = {{"id", ColumnType::string, false, {}, false, {}},
                   {"owner", ColumnType::string, false, {}, false, {}}};
  table.primary_key = "id";
  table.scopes = {{"user:{owner}", std::nullopt}};
  return table;
}

// compile_schema refuses `schema` with a message containing every fragment.
template <typename... Matchers>
void expect_compile_error(const ServerSchema& schema, Matchers... fragments) {
  try {
    compile_schema(schema);
    ADD_FAILURE() << "compiled, expected a SchemaError";
  } catch (const SchemaError& error) {
    EXPECT_THAT(error.what(), AllOf(fragments...));
  }
}

TEST(SchemaIr, IR_1_IdentifiersAreCheckedEverywhere) {
  record_spec("§2.4", "IR-1");
  for (const std::string& bad :
       {std::string(), std::string("sync_x"), std::string("SYNC_x"), std::string("_sync"),
        std::string("_SyNc_x"), std::string(64, 'a'), std::string("\xc3")}) {
    ServerSchema table_name{1, {valid_table(bad)}};
    expect_compile_error(table_name, HasSubstr("table"));
    ServerSchema column_name{1, {valid_table()}};
    column_name.tables[0].columns.push_back({bad, ColumnType::string, true, {}, false, {}});
    expect_compile_error(column_name, HasSubstr("table \"items\""), HasSubstr("column"));
    ServerSchema index_name{1, {valid_table()}};
    index_name.tables[0].indexes = {{bad, {"owner"}, false}};
    expect_compile_error(index_name, HasSubstr("table \"items\""), HasSubstr("index"));
  }
  // Exactly 63 bytes, digit-only and JavaScript-special names are plain names (Q9).
  for (const std::string& good :
       {std::string(63, 'a'), std::string("2024"), std::string("__proto__"),
        std::string("constructor"), std::string("async_x"), std::string("\xc3\xa9t\xc3\xa9")}) {
    EXPECT_NO_THROW(compile_schema(ServerSchema{1, {valid_table(good)}})) << good;
  }
}

TEST(SchemaIr, IR_2_DuplicateTablesAndColumnsAreRefused) {
  record_spec("§2.4", "IR-2");
  expect_compile_error(ServerSchema{1, {valid_table(), valid_table()}},
                       HasSubstr("table \"items\""), HasSubstr("duplicate table"));
  ServerSchema columns{1, {valid_table()}};
  columns.tables[0].columns.push_back({"owner", ColumnType::integer, true, {}, false, {}});
  expect_compile_error(columns, HasSubstr("column \"owner\""), HasSubstr("duplicate column"));
  ServerSchema none{1, {valid_table()}};
  none.tables[0].columns.clear();
  expect_compile_error(none, HasSubstr("table \"items\""), HasSubstr("at least one column"));
}

TEST(SchemaIr, IR_3_PrimaryKeyMustNameAColumn) {
  record_spec("§2.4", "IR-3");
  ServerSchema schema{1, {valid_table()}};
  schema.tables[0].primary_key = "missing";
  expect_compile_error(schema, HasSubstr("table \"items\""), HasSubstr("primary key \"missing\""));
}

TEST(SchemaIr, IR_4_ScopePatternsAreRequiredAndWellFormed) {
  record_spec("§3.1", "IR-4");
  ServerSchema none{1, {valid_table()}};
  none.tables[0].scopes.clear();
  expect_compile_error(none, HasSubstr("table \"items\""), HasSubstr("at least one scope pattern"));
  for (const char* pattern : {"user", "user:{}", "a:{x}:{y}", "a:{x", "a:}x{"}) {
    ServerSchema bad{1, {valid_table()}};
    bad.tables[0].scopes = {{pattern, "owner"}};
    expect_compile_error(bad, HasSubstr("scope pattern"), HasSubstr(pattern));
  }
  ServerSchema missing_column{1, {valid_table()}};
  missing_column.tables[0].scopes = {{"user:{who}", std::nullopt}};
  expect_compile_error(missing_column, HasSubstr("column \"who\" does not exist"));
  ServerSchema two_columns{1, {valid_table()}};
  two_columns.tables[0].scopes = {{"user:{owner}", std::nullopt}, {"u:{owner}", "id"}};
  expect_compile_error(two_columns, HasSubstr("variable \"owner\" is bound to columns"));
  ServerSchema bound{1, {valid_table()}};
  bound.tables[0].scopes = {{"user:{u}", "owner"}, {"team:{u}", "owner"}};
  const auto compiled_schema = compile_schema(bound);
  EXPECT_EQ(compiled_schema.tables[0].scopes,
            (std::vector<storage::ScopeBinding>{{"u", "owner"}, {"u", "owner"}}));
}

TEST(SchemaIr, IR_5_CrdtNeedsCrdtTypeAndEncryptedIsBytes) {
  record_spec("§5.10.1", "IR-5");
  ServerSchema crdt{1, {valid_table()}};
  crdt.tables[0].columns.push_back({"doc", ColumnType::crdt, true, {}, false, {}});
  expect_compile_error(crdt, HasSubstr("column \"doc\""), HasSubstr("crdtType"));
  crdt.tables[0].columns.back().crdt_type = "yjs-doc";
  EXPECT_NO_THROW(compile_schema(crdt));
  ServerSchema encrypted{1, {valid_table()}};
  encrypted.tables[0].columns.push_back({"secret", ColumnType::string, true, {}, true, "string"});
  expect_compile_error(encrypted, HasSubstr("column \"secret\""), HasSubstr("encrypted"));
}

TEST(SchemaIr, IR_6_IndexesNeedUniqueNamesAndExistingColumns) {
  record_spec("§2.4", "IR-6");
  ServerSchema duplicate{1, {valid_table()}};
  duplicate.tables[0].indexes = {{"by_owner", {"owner"}, false}, {"by_owner", {"id"}, true}};
  expect_compile_error(duplicate, HasSubstr("index \"by_owner\""), HasSubstr("duplicate index"));
  ServerSchema empty{1, {valid_table()}};
  empty.tables[0].indexes = {{"by_nothing", {}, false}};
  expect_compile_error(empty, HasSubstr("index \"by_nothing\""), HasSubstr("at least one column"));
  ServerSchema unknown{1, {valid_table()}};
  unknown.tables[0].indexes = {{"by_x", {"owner", "x"}, false}};
  expect_compile_error(unknown, HasSubstr("index \"by_x\""), HasSubstr("column \"x\""));
  // The same index name on two tables is allowed by the IR (C-5 moves one).
  ServerSchema two{1, {valid_table("a"), valid_table("b")}};
  two.tables[0].indexes = {{"shared", {"owner"}, false}};
  two.tables[1].indexes = {{"shared", {"owner"}, false}};
  EXPECT_NO_THROW(compile_schema(two));
}

TEST(SchemaIr, IR_7_MaterializeDefaultsToTrueUnlessEveryPayloadColumnIsEncrypted) {
  record_spec("§2.4", "IR-7");
  EXPECT_TRUE(compile_schema(ServerSchema{1, {valid_table()}}).tables[0].materialized);
  ServerSchema secret{1, {valid_table()}};
  secret.tables[0].columns.push_back({"a", ColumnType::bytes, true, {}, true, "string"});
  secret.tables[0].columns.push_back({"b", ColumnType::bytes, true, {}, true, "json"});
  EXPECT_FALSE(compile_schema(secret).tables[0].materialized);
  secret.tables[0].columns.push_back({"c", ColumnType::integer, true, {}, false, {}});
  EXPECT_TRUE(compile_schema(secret).tables[0].materialized);
  secret.tables[0].columns.pop_back();
  secret.tables[0].materialize = true;  // an explicit value wins
  EXPECT_TRUE(compile_schema(secret).tables[0].materialized);
  ServerSchema plain{1, {valid_table()}};
  plain.tables[0].materialize = false;
  EXPECT_FALSE(compile_schema(plain).tables[0].materialized);
  EXPECT_FALSE(example_compiled().find("notes")->materialized);
  EXPECT_TRUE(example_compiled().find("tasks")->materialized);
}

TEST(SchemaIr, IR_8_JsonFormRoundTripsAndMatchesTheFixtureSchema) {
  record_spec("§2.4", "IR-8");
  const ServerSchema fixture = storage::parse_schema_json(
      read_text_file(SSP_SOURCE_DIR "/fixtures/storage/example_v3.schema.json"));
  EXPECT_EQ(fixture, example_schema());
  EXPECT_EQ(storage::parse_schema_json(storage::schema_to_json(fixture)), fixture);
  ServerSchema rich{7, {valid_table()}};
  rich.tables[0].scopes.push_back({"org:{o}", "owner"});
  rich.tables[0].indexes = {{"u", {"owner", "id"}, true}};
  rich.tables[0].materialize = false;
  rich.tables[0].columns.push_back({"d", ColumnType::crdt, true, "yjs-doc", false, {}});
  rich.tables[0].columns.push_back({"e", ColumnType::bytes, true, {}, true, "float"});
  EXPECT_EQ(storage::parse_schema_json(storage::schema_to_json(rich)), rich);
}

TEST(SchemaIr, IR_9_InvalidJsonSchemaNamesTheField) {
  record_spec("§2.4", "IR-9");
  const auto error_of = [](const std::string& text) -> std::string {
    try {
      storage::parse_schema_json(text);
    } catch (const SchemaError& error) {
      return error.what();
    }
    return "(accepted)";
  };
  const std::string table =
      R"({"name":"t","columns":[{"name":"id","type":"string","nullable":false}],"primaryKey":"id","scopes":["k:{id}"]})";
  EXPECT_THAT(error_of("{"), HasSubstr("not valid JSON"));
  EXPECT_THAT(error_of("[]"), HasSubstr("expected an object"));
  EXPECT_THAT(error_of(R"({"tables":[]})"), HasSubstr("version: missing required field"));
  EXPECT_THAT(error_of(R"({"version":"3","tables":[]})"),
              HasSubstr("version: expected an integer"));
  EXPECT_THAT(error_of(R"({"version":1.5,"tables":[]})"),
              HasSubstr("version: expected an integer"));
  EXPECT_THAT(error_of(R"({"version":9007199254740992,"tables":[]})"), HasSubstr("version"));
  EXPECT_THAT(error_of(R"({"version":1,"tables":[],"extra":1})"),
              HasSubstr("extra: unknown field"));
  EXPECT_THAT(error_of(R"({"version":1,"version":2,"tables":[]})"),
              HasSubstr("\"version\" appears twice"));
  EXPECT_THAT(error_of(R"({"version":1,"tables":{}})"), HasSubstr("tables: expected an array"));
  std::string bad_type = table;
  bad_type.replace(bad_type.find("\"string\""), 8, "\"text\"");
  EXPECT_THAT(error_of(R"({"version":1,"tables":[)" + table + "," + bad_type + "]}"),
              HasSubstr("tables[1].columns[0].type: expected one of"));
  std::string no_nullable = table;
  no_nullable.replace(no_nullable.find(",\"nullable\":false"), 17, "");
  EXPECT_THAT(error_of(R"({"version":1,"tables":[)" + no_nullable + "]}"),
              HasSubstr("tables[0].columns[0].nullable: missing required field"));
  std::string bad_scope = table;
  bad_scope.replace(bad_scope.find("[\"k:{id}\"]"), 10, "[5]");
  EXPECT_THAT(error_of(R"({"version":1,"tables":[)" + bad_scope + "]}"),
              HasSubstr("tables[0].scopes[0]"));
  std::string bad_index = table;
  bad_index.insert(bad_index.size() - 1, R"(,"indexes":[{"name":"i","columns":[1]}])");
  EXPECT_THAT(error_of(R"({"version":1,"tables":[)" + bad_index + "]}"),
              HasSubstr("tables[0].indexes[0].columns[0]: expected a string"));
  EXPECT_EQ(error_of(R"({"version":1,"tables":[)" + table + "]}"), "(accepted)");
}

}  // namespace
}  // namespace ssp::harness
