// The 0.22 same-version layout comparison and what it reports
// (design/storage.md §2.2 step 5a, the §2.4 table; §6 B-5, B-6, B-13).
#include <gmock/gmock.h>

#include "harness/fixtures/storage_fixtures.hpp"
#include "ssp/storage/column_layout.hpp"

namespace ssp::harness {
namespace {

using storage::ColumnLayout;
using storage::ColumnType;
using storage::RefusalReason;
using storage::SchemaReport;
using ::testing::HasSubstr;

using Tables = std::vector<std::pair<std::string, std::vector<ColumnLayout>>>;

const ColumnLayout a{"a", ColumnType::string, false};
const ColumnLayout b{"b", ColumnType::string, true};
const ColumnLayout c{"c", ColumnType::string, true};
const ColumnLayout d{"d", ColumnType::string, true};

std::string disagree(const std::string& mismatch) {
  return "stored schema layouts disagree with the configured schema at version 5 (" + mismatch +
         ") \u2014 refusing to serve a database whose stored rows the running code cannot decode";
}

// One row of the §2.4 table: the database is created by `stored` at version 5
// (or holds `stored_text` as its layouts), then opened with `configured` at
// version 5. `reported` is the mismatch, "" for a pass.
struct Case {
  std::string kind;
  Tables stored;
  Tables configured;
  std::string reported;
  std::optional<std::string> stored_text = std::nullopt;
};

std::vector<Case> cases() {
  const ColumnLayout x{"x", ColumnType::string, true};
  ColumnLayout b_integer = b;
  b_integer.type = ColumnType::integer;
  ColumnLayout b_required = b;
  b_required.nullable = false;
  const Tables t_abc = {{"T", {a, b, c}}};
  return {
      {"identical", t_abc, t_abc, ""},
      {"renamed column", {{"T", {a, x, c}}}, t_abc, R"(table "T" column "b")"},
      {"type change", {{"T", {a, b_integer, c}}}, t_abc, R"(table "T" column "b")"},
      {"nullable true to false", {{"T", {a, b_required, c}}}, t_abc, R"(table "T" column "b")"},
      {"nullable false to true", t_abc, {{"T", {a, b_required, c}}}, R"(table "T" column "b")"},
      {"reorder", {{"T", {a, c, b}}}, t_abc, R"(table "T" column "b")"},
      {"dropped trailing", t_abc, {{"T", {a, b}}}, R"(table "T" column "c")"},
      {"dropped middle", t_abc, {{"T", {a, c}}}, R"(table "T" column "c")"},
      {"extra configured column", t_abc, {{"T", {a, b, c, d}}}, R"(table "T" column "d")"},
      {"configured table missing from stored",
       t_abc,
       {{"T", {a, b, c}}, {"U", {a, b}}},
       R"(table "U" column "a")"},
      {"extra stored table", {{"T", {a, b, c}}, {"X", {a}}}, t_abc, R"(table "X")"},
      {"column mismatch beats extra stored table",
       {{"T", {a, x, c}}, {"X", {a}}},
       t_abc,
       R"(table "T" column "b")"},
      {"first of two mismatching tables in schema order",
       {{"U", {a, x}}, {"T", {a, x, c}}},
       {{"T", {a, b, c}}, {"U", {a, b}}},
       R"(table "T" column "b")"},
      {"tables in a different order only",
       {{"T", {a, b, c}}, {"U", {a, b}}},
       {{"U", {a, b}}, {"T", {a, b, c}}},
       ""},
      {"hand-made empty stored layouts", t_abc, t_abc, R"(table "T" column "a")", "{}"},
  };
}

class SameVersionLayouts : public StorageTest {
 protected:
  // A fresh database as the stored side of `test` left it.
  std::unique_ptr<TestDatabase> database_written_by(const Case& test) {
    auto db = fresh_database();
    open_on(*db)->ensure_schema(compiled(schema_of(5, test.stored)));
    if (test.stored_text)
      db->exec("UPDATE sync_schema_meta SET layouts = '" + *test.stored_text + "'");
    return db;
  }
};
SSP_SQL_BACKENDS(SameVersionLayouts);

TEST_P(SameVersionLayouts, B_5_EachKindOfDriftGivesTheListedOutcome) {
  record_spec("§2.4", "B-5");
  for (const Case& test : cases()) {
    SCOPED_TRACE(test.kind);
    auto db = database_written_by(test);
    const std::string before = db->dump_all_tables();
    auto opened = open_on(*db);
    const auto refusal =
        refusal_of([&] { opened->ensure_schema(compiled(schema_of(5, test.configured))); });
    if (test.reported.empty()) {
      EXPECT_FALSE(refusal) << refusal->what();
    } else {
      ASSERT_TRUE(refusal);
      EXPECT_EQ(refusal->reason(), RefusalReason::layouts_disagree);
      EXPECT_EQ(std::string(refusal->what()), disagree(test.reported));
      EXPECT_EQ(db->dump_all_tables(), before);
    }
  }
}

TEST_P(SameVersionLayouts, B_6_AllDriftIsAcceptedIn0_21CompatibilityMode) {
  record_spec("§2.4", "B-6");
  storage::ServerStorageOptions v0_21;
  v0_21.compatibility = storage::Compatibility::v0_21;
  for (const Case& test : cases()) {
    SCOPED_TRACE(test.kind);
    auto db = database_written_by(test);
    const std::string before = db->dump_all_tables();
    const SchemaReport report =
        open_on(*db, v0_21)->ensure_schema(compiled(schema_of(5, test.configured)));
    EXPECT_TRUE(action_is(report, SchemaReport::Action::verified));
    EXPECT_EQ(db->dump_all_tables(), before);
  }
}

TEST_P(SameVersionLayouts, B_13_NonLayoutChangesAtTheSameVersionAreAcceptedWithoutDdl) {
  record_spec("§2.4", "B-13");
  storage().ensure_schema(example_compiled());
  storage().upsert_row("acme", "tasks", task_row("t1", "p1", "x", false));
  const std::string before = dump();
  std::vector<std::pair<std::string, storage::ServerSchema>> variants;
  auto indexes = example_schema();
  indexes.tables[0].indexes = {{"by_title", {"title"}, true}};
  variants.emplace_back("indexes", indexes);
  auto materialize_off = example_schema();
  materialize_off.tables[0].materialize = false;
  variants.emplace_back("materialize on to off", materialize_off);
  auto scopes = example_schema();
  scopes.tables[0].scopes = {{"proj:{p}", "project_id"}, {"t:{title}", std::nullopt}};
  variants.emplace_back("scopes", scopes);
  auto primary_key = example_schema();
  primary_key.tables[0].primary_key = "project_id";
  variants.emplace_back("primary key", primary_key);
  auto crdt_type = example_schema();
  crdt_type.tables[0].columns[5].crdt_type = "automerge";
  variants.emplace_back("crdtType", crdt_type);
  auto declared_type = example_schema();
  declared_type.tables[1].columns[2].declared_type = "json";
  variants.emplace_back("declaredType", declared_type);
  for (const auto& [kind, schema] : variants) {
    SCOPED_TRACE(kind);
    const SchemaReport report = open()->ensure_schema(compiled(schema));
    EXPECT_TRUE(action_is(report, SchemaReport::Action::verified));
    if (reported(report)) {
      EXPECT_TRUE(report.statements.empty());
    }
    EXPECT_EQ(dump(), before);  // no index rebuild, no projection change
  }
}

// Our storage.md Q3, not 0.22 (which checks the internal columns only):
// turning materialize on without a bump is refused by the physical check,
// since the projection columns the upserts would name do not exist.
TEST_P(SameVersionLayouts, B_13_REF_MaterializeOnWithoutABumpIsRefused) {
  record_spec("§2.4", "B-13-REF");
  storage().ensure_schema(example_compiled());
  storage().upsert_row("acme", "tasks", task_row("t1", "p1", "x", false));
  const std::string before = dump();
  auto materialize_on = example_schema();
  materialize_on.tables[1].materialize = true;
  const auto refusal = refusal_of([&] { open()->ensure_schema(compiled(materialize_on)); });
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->reason(), RefusalReason::physical_mismatch);
  EXPECT_EQ(refusal->table(), "notes");
  EXPECT_EQ(refusal->column(), "id");
  EXPECT_EQ(dump(), before);
}

}  // namespace
}  // namespace ssp::harness
