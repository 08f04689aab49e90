// Stored layouts (design/storage.md §1.2, §6 A-1 … A-3, §8 Q9 and Q10): what
// the marker records, byte for byte, and how a stored value is read back.
// The layouts text is the candidate's (schema().compile(...).layouts_json);
// the expected texts are literals. The reference's own layouts reader is
// pinned by self-tests/layouts_internals_test.cpp (LAY-1).
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include "harness/fixtures/storage_fixtures.hpp"
#include "harness/gates/capability_gate.hpp"

namespace ssp::harness {
namespace {

using storage::ColumnType;
using storage::RefusalReason;
using ::testing::HasSubstr;

class Layouts : public StorageTest {
 protected:
  void SetUp() override {
    SSP_REQUIRE_CAPABILITY(candidate(), Capability::schema);
    StorageTest::SetUp();
  }
  // The candidate's layouts text of `schema`.
  std::string candidate_layouts_json(const storage::ServerSchema& schema) {
    return candidate().schema().compile(schema).layouts_json;
  }
};
SSP_SQL_BACKENDS(Layouts);

TEST_P(Layouts, A_1_LayoutRecordsOnlyNameTypeNullableInDeclarationOrder) {
  record_spec("§2.4", "A-1");
  const std::string json = candidate_layouts_json(example_schema());
  const auto layouts = nlohmann::ordered_json::parse(json, nullptr, false);
  ASSERT_TRUE(layouts.is_object()) << json;
  ASSERT_EQ(layouts.size(), 2u);
  EXPECT_EQ(layouts.begin().key(), "tasks");
  ASSERT_TRUE(layouts.contains("tasks") && layouts["tasks"].is_array() &&
              layouts["tasks"].size() == 6u);
  ASSERT_TRUE(layouts.contains("notes") && layouts["notes"].is_array() &&
              layouts["notes"].size() == 3u);
  EXPECT_EQ(layouts["tasks"][5], nlohmann::ordered_json::parse(
                                     R"({"name":"doc","type":"crdt","nullable":true})"));
  EXPECT_EQ(layouts["notes"][2], nlohmann::ordered_json::parse(
                                     R"({"name":"body","type":"bytes","nullable":true})"));
  for (const char* absent : {"crdtType", "yjs-doc", "encrypted", "declaredType", "by_project",
                             "materialize", "primaryKey", "project:"}) {
    EXPECT_THAT(json, ::testing::Not(HasSubstr(absent)));
  }
  // Every one of the eight type names, as the marker spells them.
  storage::ServerSchema all = example_schema();
  const ColumnType types[] = {ColumnType::string,   ColumnType::integer, ColumnType::floating,
                              ColumnType::boolean,  ColumnType::json,    ColumnType::bytes,
                              ColumnType::blob_ref, ColumnType::crdt};
  all.tables[1].columns.resize(2);
  for (ColumnType type : types) {
    all.tables[1].columns.push_back(
        {"c" + std::to_string(int(type)),
         type,
         true,
         type == ColumnType::crdt ? std::optional<std::string>("x") : std::nullopt,
         false,
         {}});
  }
  EXPECT_THAT(
      candidate_layouts_json(all),
      HasSubstr(
          R"({"name":"c1","type":"string","nullable":true},{"name":"c2","type":"integer","nullable":true},)"
          R"({"name":"c3","type":"float","nullable":true},{"name":"c4","type":"boolean","nullable":true},)"
          R"({"name":"c5","type":"json","nullable":true},{"name":"c6","type":"bytes","nullable":true},)"
          R"({"name":"c7","type":"blob_ref","nullable":true},{"name":"c8","type":"crdt","nullable":true}]})"));
  storage().ensure_schema(compiled(all));
  EXPECT_EQ(marker(), "3|" + candidate_layouts_json(all));
}

TEST_P(Layouts, A_2_LayoutsOfIsByteIdenticalToTheWorkedExample) {
  record_spec("§2.4", "A-2");
  EXPECT_EQ(candidate_layouts_json(example_schema()), kExampleLayoutsJson);
  EXPECT_EQ(candidate_layouts_json(storage::ServerSchema{5, {}}), "{}");
  // JSON.stringify escaping and raw non-ASCII.
  storage::ServerSchema odd = example_schema();
  odd.tables[1].name = "n\"o\\t\x01\xc3\xa9";
  EXPECT_THAT(candidate_layouts_json(odd), HasSubstr(R"("n\"o\\t\u0001é":[)"));
  // What the backend stores is that exact text.
  storage().ensure_schema(example_compiled());
  EXPECT_EQ(marker(), "3|" + kExampleLayoutsJson);
}

TEST_P(Layouts, A_3_StoredLayoutsParseStructurallyAndInvalidJsonRefuses) {
  record_spec("§2.4", "A-3");
  // The stored text compares structurally: key order, extra fields and
  // whitespace do not matter, a different nullability does.
  storage().ensure_schema(example_compiled());
  const auto stored = nlohmann::json::parse(kExampleLayoutsJson);  // keys now sorted
  nlohmann::json extra = stored;
  extra["tasks"][0]["extra"] = nlohmann::json::array({1});
  for (const std::string& same : {stored.dump(1), extra.dump()}) {
    SCOPED_TRACE(same);
    database().exec("UPDATE sync_schema_meta SET layouts = '" + same + "'");
    EXPECT_FALSE(refusal_of([&] { open()->ensure_schema(example_compiled()); }));
  }
  nlohmann::json flipped = stored;
  flipped["tasks"][0]["nullable"] = true;
  database().exec("UPDATE sync_schema_meta SET layouts = '" + flipped.dump() + "'");
  const auto disagree = refusal_of([&] { open()->ensure_schema(example_compiled()); });
  ASSERT_TRUE(disagree);
  EXPECT_EQ(disagree->reason(), RefusalReason::layouts_disagree);

  // Invalid JSON in the marker: refused on the migration path and at the same
  // version, with no app DDL and the marker unchanged.
  database().exec("UPDATE sync_schema_meta SET layouts = '{not json'");
  const std::string before = dump();
  for (std::int64_t version : {3, 4}) {
    const auto refusal =
        refusal_of([&] { open()->ensure_schema(compiled(example_schema(), version)); });
    ASSERT_TRUE(refusal) << "version " << version;
    EXPECT_EQ(refusal->reason(), RefusalReason::layouts_unreadable);
    EXPECT_EQ(dump(), before);
  }
}

// Our 0.21 compatibility mode (D-STORAGE-V0_21-MODE), not 0.22: like 0.21 it
// never parses the stored layouts at the same version, so it accepts them.
TEST_P(Layouts, A_3_REF_InvalidStoredLayoutsAreAcceptedIn0_21CompatibilityMode) {
  record_spec("§2.4", "A-3-REF");
  storage().ensure_schema(example_compiled());
  database().exec("UPDATE sync_schema_meta SET layouts = '{not json'");
  const std::string before = dump();
  storage::ServerStorageOptions v0_21;
  v0_21.compatibility = storage::Compatibility::v0_21;
  EXPECT_NO_THROW(open(v0_21)->ensure_schema(example_compiled()));
  EXPECT_EQ(dump(), before);
}

TEST_P(Layouts, Q9_TableNamesArePlainKeysInDeclarationOrder) {
  record_spec("§2.4", "Q9");
  storage::ServerSchema schema = example_schema();
  storage::TableSchema numeric = schema.tables[1];
  numeric.name = "2024";
  storage::TableSchema proto = schema.tables[1];
  proto.name = "__proto__";
  schema.tables.push_back(numeric);
  schema.tables.push_back(proto);
  const std::string json = candidate_layouts_json(schema);
  EXPECT_LT(json.find("\"tasks\""), json.find("\"2024\""));
  EXPECT_LT(json.find("\"2024\""), json.find("\"__proto__\""));
  storage().ensure_schema(compiled(schema));
  EXPECT_EQ(marker(), "3|" + json);
  // An extra stored table named like an Object.prototype member is reported.
  storage::ServerSchema smaller = schema;
  smaller.tables.pop_back();
  smaller.tables.back().name = "constructor";
  database().exec("UPDATE sync_schema_meta SET layouts = '" + candidate_layouts_json(smaller) +
                  "'");
  storage::ServerSchema configured = schema;
  configured.tables.erase(configured.tables.begin() + 2, configured.tables.end());
  const std::string before = dump();
  const auto refusal = refusal_of([&] { open()->ensure_schema(compiled(configured)); });
  ASSERT_TRUE(refusal);
  EXPECT_THAT(refusal->what(), HasSubstr("(table \"constructor\")"));
  EXPECT_EQ(dump(), before);
}

TEST_P(Layouts, Q10_WrongShapedStoredLayoutsAreRefusalsNotCrashes) {
  record_spec("§2.4", "Q10");
  storage().ensure_schema(example_compiled());
  const struct {
    const char* stored;
    RefusalReason reason;
    const char* reported;
  } cases[] = {
      {R"({"tasks":{"name":"id"},"notes":[]})", RefusalReason::layouts_disagree,
       R"(table "tasks" column "id")"},
      {R"({"tasks":"abc"})", RefusalReason::layouts_disagree, R"(table "tasks" column "id")"},
      {R"({"tasks":[1,2,3,4,5,6]})", RefusalReason::layouts_disagree,
       R"(table "tasks" column "id")"},
      {R"({"tasks":[{"name":"id","type":"string","nullable":"false"}]})",
       RefusalReason::layouts_disagree, R"(table "tasks" column "id")"},
      {R"([])", RefusalReason::layouts_unreadable, "not a JSON object"},
      {R"(null)", RefusalReason::layouts_unreadable, "not a JSON object"},
      {R"("{}")", RefusalReason::layouts_unreadable, "not a JSON object"},
      {R"(42)", RefusalReason::layouts_unreadable, "not a JSON object"},
  };
  for (const auto& c : cases) {
    database().exec(std::string("UPDATE sync_schema_meta SET layouts = '") + c.stored + "'");
    const std::string before = dump();
    const auto refusal = refusal_of([&] { open()->ensure_schema(example_compiled()); });
    ASSERT_TRUE(refusal) << c.stored;
    EXPECT_EQ(refusal->reason(), c.reason) << c.stored;
    EXPECT_THAT(refusal->what(), HasSubstr(c.reported)) << c.stored;
    EXPECT_EQ(dump(), before);
  }
  // On the migration path a non-array table layout is refused naming the table.
  database().exec(R"(UPDATE sync_schema_meta SET layouts = '{"tasks":{},"notes":[]}')");
  const auto migration = refusal_of([&] { open()->ensure_schema(compiled(example_schema(), 4)); });
  ASSERT_TRUE(migration);
  EXPECT_EQ(migration->reason(), RefusalReason::layouts_unreadable);
  EXPECT_EQ(migration->table(), "tasks");
}

}  // namespace
}  // namespace ssp::harness
