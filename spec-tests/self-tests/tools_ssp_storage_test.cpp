// ssp-storage on every storage fixture, on both backends, through the real
// binary: the verdict, the reason, the exit code, and that check changes
// nothing (requirements TOOL-1 … TOOL-3 in docs/requirements/storage.md).
#include <gmock/gmock.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "harness/storage_fixtures.hpp"
#include "ssp/storage/schema_json.hpp"

namespace ssp::harness {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using Json = nlohmann::json;

const std::string kFixtures = SSP_SOURCE_DIR "/fixtures/storage";

// Kept non-const where `output` is indexed: operator[] on a const Json with a
// missing key is undefined behaviour (an assertion), not a failure.
struct ToolRun {
  int exit_code = -1;
  Json output;
};

std::string shell_quoted(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The exit code and stdout of the tool run with `args`.
std::pair<int, std::string> run_tool_text(const std::vector<std::string>& args) {
  std::string command = shell_quoted(SSP_STORAGE_TOOL);
  for (const auto& arg : args) command += " " + shell_quoted(arg);
  command += " 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot run " + command);
  std::string text;
  char buffer[4096];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) text.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

ToolRun run_tool(const std::vector<std::string>& args) {
  const auto [exit_code, text] = run_tool_text(args);
  ToolRun run;
  run.exit_code = exit_code;
  run.output = Json::parse(text);
  return run;
}

class StorageTool : public StorageTest {
 protected:
  void SetUp() override {
    StorageTest::SetUp();
    std::random_device random;
    directory_ = std::filesystem::temp_directory_path() /
                 ("ssp-storage-tool-" + std::to_string(random()) + std::to_string(random()));
    std::filesystem::create_directories(directory_);
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }

  // Writes `schema` as JSON and returns the file's path.
  std::string schema_file(const storage::ServerSchema& schema, const std::string& name) {
    const std::string path = (directory_ / (name + ".json")).string();
    std::ofstream(path) << storage::schema_to_json(schema);
    return path;
  }

  // The --sqlite / --pg arguments naming this test's database.
  std::vector<std::string> target() {
    const DatabaseLocation& location = database().location();
    if (backend() == Backend::sqlite) return {"--sqlite", location.sqlite_path};
    return {"--pg", location.pg_dsn, "--pg-schema", location.pg_schema};
  }

  ToolRun tool(const std::string& command, const std::string& schema_path) {
    std::vector<std::string> args = {command, "--schema", schema_path};
    for (const auto& arg : target()) args.push_back(arg);
    return run_tool(args);
  }

  std::filesystem::path directory_;
};
SSP_SQL_BACKENDS(StorageTool);

storage::ServerSchema bump(storage::ServerSchema schema, std::int64_t version) {
  schema.version = version;
  return schema;
}

TEST_P(StorageTool, TOOL_1_CheckGivesTheVerdictAndReasonOnEveryFixture) {
  record_spec("§2.4", "TOOL-1");
  const std::string v3 = kFixtures + "/example_v3.schema.json";
  const std::string v4 = schema_file(bump(example_schema(), 4), "v4");
  const std::string v2 = schema_file(bump(example_schema(), 2), "v2");
  storage::ServerSchema drift = example_schema();
  drift.tables[0].columns[2].name = "heading";
  const std::string drift_v3 = schema_file(drift, "drift_v3");
  const std::string drift_v4 = schema_file(bump(drift, 4), "drift_v4");
  struct Expectation {
    std::string fixture;
    std::string schema;
    int exit_code;
    std::string verdict;  // action when servable, reason when refused
    std::string table;
    std::string column;
  };
  const std::vector<Expectation> expectations = {
      {"v0_21", v3, 0, "verified", "", ""},
      {"v0_21", v4, 0, "migrate", "", ""},
      {"v0_21", v2, 1, "stored_newer", "", ""},
      {"v0_21", drift_v3, 1, "layouts_disagree", "tasks", "heading"},  // the configured name
      {"v0_21", drift_v4, 1, "not_append_only", "tasks", "heading"},
      {"v0_20", v3, 1, "physical_mismatch", "tasks", "_sync_column_versions"},
      {"v0_20", v4, 0, "migrate", "", ""},
      {"v0_20", v2, 1, "stored_newer", "", ""},
  };
  for (const Expectation& expected : expectations) {
    SCOPED_TRACE(expected.fixture + " with " + expected.schema);
    auto db = fresh_database();
    db->exec(read_text_file(kFixtures + "/" + expected.fixture + "." +
                            std::string(backend_name(backend())) + ".sql"));
    const std::string before = db->dump_all_tables();
    std::vector<std::string> args = {"check", "--schema", expected.schema};
    if (backend() == Backend::sqlite) {
      args.insert(args.end(), {"--sqlite", db->location().sqlite_path});
    } else {
      args.insert(args.end(),
                  {"--pg", db->location().pg_dsn, "--pg-schema", db->location().pg_schema});
    }
    ToolRun run = run_tool(args);
    EXPECT_EQ(run.exit_code, expected.exit_code) << run.output.dump();
    EXPECT_EQ(run.output["servable"], expected.exit_code == 0);
    if (expected.exit_code == 0) {
      EXPECT_EQ(run.output["action"], expected.verdict);
      EXPECT_EQ(run.output["storedVersion"], 3);
    } else {
      EXPECT_EQ(run.output["reason"], expected.verdict);
      if (!expected.table.empty()) {
        EXPECT_EQ(run.output["table"], expected.table);
        EXPECT_EQ(run.output["column"], expected.column);
      }
    }
    EXPECT_EQ(db->dump_all_tables(), before) << "check changed the database";
  }
  // The 0.20 bump says what it would add.
  load_fixture(kFixtures, "v0_20");
  ToolRun upgrade = tool("check", v4);
  EXPECT_THAT(upgrade.output["statements"].dump(),
              HasSubstr("ADD COLUMN \\\"_sync_column_versions\\\""));
  EXPECT_EQ(tool("check", v2).output["message"],
            "stored schema version 3 is newer than the configured schema (2) \u2014 refusing to "
            "run an older server against a migrated database");
}

TEST_P(StorageTool, TOOL_2_MigrateAppliesAndAfterwardsCheckVerifies) {
  record_spec("§2.4", "TOOL-2");
  load_fixture(kFixtures, "v0_20");
  const std::string v4 = schema_file(bump(example_schema(), 4), "v4");
  ToolRun migrated = tool("migrate", v4);
  EXPECT_EQ(migrated.exit_code, 0) << migrated.output.dump();
  EXPECT_EQ(migrated.output["action"], "migrated");
  EXPECT_EQ(marker().substr(0, 2), "4|");
  EXPECT_THAT(database().column_names("notes"), Contains("_sync_column_versions"));
  const std::string after = dump();
  ToolRun checked = tool("check", v4);
  EXPECT_EQ(checked.exit_code, 0);
  EXPECT_EQ(checked.output["action"], "verified");
  EXPECT_EQ(checked.output["statements"], Json::array());
  EXPECT_EQ(dump(), after);
  // migrate refuses what check refuses, and changes nothing either.
  ToolRun refused = tool("migrate", schema_file(bump(example_schema(), 3), "v3"));
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.output["reason"], "stored_newer");
  EXPECT_EQ(dump(), after);
}

TEST_P(StorageTool, TOOL_3_UsageSchemaAndIoErrorsExitTwoNamingTheProblem) {
  record_spec("§2.4", "TOOL-3");
  const std::string v3 = kFixtures + "/example_v3.schema.json";
  EXPECT_EQ(run_tool({}).exit_code, 2);
  EXPECT_EQ(run_tool({"fix", "--schema", v3}).output["error"], "usage");
  EXPECT_EQ(run_tool({"check", "--schema", v3}).output["error"], "usage");
  EXPECT_EQ(run_tool({"check", "--schema", v3, "--sqlite", "a", "--pg", "b"}).output["error"],
            "usage");
  EXPECT_EQ(run_tool({"check", "--schema", v3, "--sqlite"}).output["error"], "usage");
  const std::string missing = (directory_ / "absent.db").string();
  ToolRun no_db = run_tool({"check", "--schema", v3, "--sqlite", missing});
  EXPECT_EQ(no_db.exit_code, 2);
  EXPECT_EQ(no_db.output["error"], "io");
  EXPECT_FALSE(std::filesystem::exists(missing)) << "check created a database file";
  ToolRun no_schema = tool("check", (directory_ / "absent.json").string());
  EXPECT_EQ(no_schema.exit_code, 2);
  EXPECT_EQ(no_schema.output["error"], "io");
  const std::string broken = (directory_ / "broken.json").string();
  std::ofstream(broken)
      << R"({"version":3,"tables":[{"name":"t","columns":[{"name":"id","type":"text","nullable":false}],"primaryKey":"id","scopes":["k:{id}"]}]})";
  ToolRun bad_schema = tool("check", broken);
  EXPECT_EQ(bad_schema.exit_code, 2);
  EXPECT_EQ(bad_schema.output["error"], "schema");
  EXPECT_THAT(bad_schema.output["message"].get<std::string>(),
              HasSubstr("tables[0].columns[0].type"));
  storage::ServerSchema uncompilable = example_schema();
  uncompilable.tables[0].primary_key = "nope";
  ToolRun compile_error = tool("check", schema_file(uncompilable, "uncompilable"));
  EXPECT_EQ(compile_error.exit_code, 2);
  EXPECT_THAT(compile_error.output["message"].get<std::string>(),
              HasSubstr("primary key \"nope\""));
  if (backend() == Backend::postgres) {
    ToolRun unreachable =
        run_tool({"check", "--schema", v3, "--pg", "host=127.0.0.1 port=1 connect_timeout=2"});
    EXPECT_EQ(unreachable.exit_code, 2);
    EXPECT_EQ(unreachable.output["error"], "io");
  }
}

TEST_P(StorageTool, TOOL_4_HelpPrintsTheUsageAndExitsZero) {
  record_spec("§2.4", "TOOL-4");
  for (const char* flag : {"--help", "-h"}) {
    const auto [exit_code, text] = run_tool_text({flag});
    EXPECT_EQ(exit_code, 0) << flag;
    EXPECT_THAT(text, ::testing::StartsWith("usage: ssp-storage check   --schema FILE")) << flag;
    EXPECT_THAT(text, HasSubstr("exit: 0 servable, 1 refused, 2 usage or I/O error")) << flag;
  }
}

// The message of a failed run: one line naming `named`, without internal SQL
// or a trailing newline.
void expect_one_line_message(const ToolRun& run, const std::string& kind,
                             const std::string& named) {
  EXPECT_EQ(run.exit_code, 2) << run.output.dump();
  EXPECT_EQ(run.output.value("error", "(no error)"), kind) << run.output.dump();
  const std::string message = run.output.value("message", "(no message)");
  EXPECT_THAT(message, HasSubstr(named));
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_FALSE(message.ends_with(" ") || message.ends_with("\t")) << message;
  for (const char* sql : {"SELECT", "BEGIN", "CREATE", "LINE 1", " in: "}) {
    EXPECT_THAT(message, ::testing::Not(HasSubstr(sql))) << "internal SQL shown";
  }
}

TEST_P(StorageTool, TOOL_5_ErrorsNameTheProblemInOneLineWithoutSql) {
  record_spec("§2.4", "TOOL-5");
  const std::string v3 = kFixtures + "/example_v3.schema.json";
  // A misspelled last option is unknown, not an option missing its value.
  expect_one_line_message(run_tool({"check", "--schema", v3, "--bogus"}), "usage",
                          "unknown option --bogus");
  expect_one_line_message(run_tool({"check", "--schema", v3, "--sqlite"}), "usage",
                          "--sqlite needs a value");
  const std::string directory = directory_.string();
  expect_one_line_message(run_tool({"check", "--schema", v3, "--sqlite", directory}), "io",
                          directory + " is a directory, not a SQLite database file");
  expect_one_line_message(run_tool({"check", "--schema", directory, "--sqlite", directory}), "io",
                          "schema file " + directory + " is a directory");
  // SQLite fails on its first statement, a BEGIN, for a file that is not a database.
  const std::string text = (directory_ / "notes.txt").string();
  std::ofstream(text) << "id,title\n1,groceries\n";
  expect_one_line_message(run_tool({"check", "--schema", v3, "--sqlite", text}), "io",
                          "file is not a database");
  if (backend() == Backend::postgres) {
    // libpq's message has a second, indented line and a trailing newline.
    expect_one_line_message(
        run_tool({"check", "--schema", v3, "--pg", "host=127.0.0.1 port=1 connect_timeout=2"}),
        "io", "connection to server at \"127.0.0.1\", port 1 failed");
  }
}

TEST_P(StorageTool, TOOL_6_ASchemaFileWithAByteOrderMarkIsRefused) {
  record_spec("§2.4", "TOOL-6");
  const std::string schema = read_text_file(kFixtures + "/example_v3.schema.json");
  const std::string marked = (directory_ / "marked.json").string();
  std::ofstream(marked) << "\xEF\xBB\xBF" << schema;
  const ToolRun refused = tool("check", marked);
  EXPECT_EQ(refused.exit_code, 2) << refused.output.dump();
  EXPECT_EQ(refused.output.value("error", "(no error)"), "schema");
  EXPECT_THAT(refused.output.value("message", "(no message)"),
              HasSubstr("not valid JSON: a byte-order mark (U+FEFF) precedes the value"));
  // The same text without the mark is the fixture schema, served.
  const std::string plain = (directory_ / "plain.json").string();
  std::ofstream(plain) << schema;
  EXPECT_EQ(tool("check", plain).exit_code, 0);
}

}  // namespace
}  // namespace ssp::harness
