// ssp-storage on every storage fixture, on both backends, through the real
// binary: the verdict, the reason, the exit code, and that check changes
// nothing (requirements TOOL-1 … TOOL-6 in docs/requirements/storage.md); log
// and verify over commits the reference's push pipeline wrote, and verify on
// logs damaged behind the store's back (TOOL-7, TOOL-8).
#include <gmock/gmock.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "harness/fixtures/edge_json_cases.hpp"
#include "harness/fixtures/push_fixtures.hpp"
#include "harness/fixtures/storage_fixtures.hpp"
#include "harness/util/file_text.hpp"
#include "harness/util/scratch_directory.hpp"
#include "wire/schema_json.hpp"

namespace ssp::harness {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using JsonDocument = nlohmann::json;

const std::string kFixtures = SSP_SOURCE_DIR "/fixtures/storage";

// Kept non-const where `output` is indexed: operator[] on a const JsonDocument with a
// missing key is undefined behaviour (an assertion), not a failure.
struct StorageToolRun {
  int exit_code = -1;
  JsonDocument output;
};

std::string shell_quoted(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The exit code and stdout of the tool run with `args`.
std::pair<int, std::string> run_storage_tool_text(const std::vector<std::string>& args) {
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

StorageToolRun run_storage_tool(const std::vector<std::string>& args) {
  const auto [exit_code, text] = run_storage_tool_text(args);
  StorageToolRun run;
  run.exit_code = exit_code;
  run.output = JsonDocument::parse(text);
  return run;
}

class StorageTool : public StorageTest {
 protected:
  void SetUp() override {
    StorageTest::SetUp();
    std::random_device random;
    directory_ = scratch_directory() /
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

  StorageToolRun tool(const std::string& command, const std::string& schema_path) {
    std::vector<std::string> args = {command, "--schema", schema_path};
    for (const auto& arg : target()) args.push_back(arg);
    return run_storage_tool(args);
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
    StorageToolRun run = run_storage_tool(args);
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
  StorageToolRun upgrade = tool("check", v4);
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
  StorageToolRun migrated = tool("migrate", v4);
  EXPECT_EQ(migrated.exit_code, 0) << migrated.output.dump();
  EXPECT_EQ(migrated.output["action"], "migrated");
  EXPECT_EQ(marker().substr(0, 2), "4|");
  EXPECT_THAT(database().column_names("notes"), Contains("_sync_column_versions"));
  const std::string after = dump();
  StorageToolRun checked = tool("check", v4);
  EXPECT_EQ(checked.exit_code, 0);
  EXPECT_EQ(checked.output["action"], "verified");
  EXPECT_EQ(checked.output["statements"], JsonDocument::array());
  EXPECT_EQ(dump(), after);
  // migrate refuses what check refuses, and changes nothing either.
  StorageToolRun refused = tool("migrate", schema_file(bump(example_schema(), 3), "v3"));
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.output["reason"], "stored_newer");
  EXPECT_EQ(dump(), after);
}

TEST_P(StorageTool, TOOL_3_UsageSchemaAndIoErrorsExitTwoNamingTheProblem) {
  record_spec("§2.4", "TOOL-3");
  const std::string v3 = kFixtures + "/example_v3.schema.json";
  EXPECT_EQ(run_storage_tool({}).exit_code, 2);
  EXPECT_EQ(run_storage_tool({"fix", "--schema", v3}).output["error"], "usage");
  EXPECT_EQ(run_storage_tool({"check", "--schema", v3}).output["error"], "usage");
  EXPECT_EQ(
      run_storage_tool({"check", "--schema", v3, "--sqlite", "a", "--pg", "b"}).output["error"],
      "usage");
  EXPECT_EQ(run_storage_tool({"check", "--schema", v3, "--sqlite"}).output["error"], "usage");
  const std::string missing = (directory_ / "absent.db").string();
  StorageToolRun no_db = run_storage_tool({"check", "--schema", v3, "--sqlite", missing});
  EXPECT_EQ(no_db.exit_code, 2);
  EXPECT_EQ(no_db.output["error"], "io");
  EXPECT_FALSE(std::filesystem::exists(missing)) << "check created a database file";
  StorageToolRun no_schema = tool("check", (directory_ / "absent.json").string());
  EXPECT_EQ(no_schema.exit_code, 2);
  EXPECT_EQ(no_schema.output["error"], "io");
  const std::string broken = (directory_ / "broken.json").string();
  std::ofstream(broken)
      << R"({"version":3,"tables":[{"name":"t","columns":[{"name":"id","type":"text","nullable":false}],"primaryKey":"id","scopes":["k:{id}"]}]})";
  StorageToolRun bad_schema = tool("check", broken);
  EXPECT_EQ(bad_schema.exit_code, 2);
  EXPECT_EQ(bad_schema.output["error"], "schema");
  EXPECT_THAT(bad_schema.output["message"].get<std::string>(),
              HasSubstr("tables[0].columns[0].type"));
  storage::ServerSchema uncompilable = example_schema();
  uncompilable.tables[0].primary_key = "nope";
  StorageToolRun compile_error = tool("check", schema_file(uncompilable, "uncompilable"));
  EXPECT_EQ(compile_error.exit_code, 2);
  EXPECT_THAT(compile_error.output["message"].get<std::string>(),
              HasSubstr("primary key \"nope\""));
  if (backend() == Backend::postgres) {
    StorageToolRun unreachable = run_storage_tool(
        {"check", "--schema", v3, "--pg", "host=127.0.0.1 port=1 connect_timeout=2"});
    EXPECT_EQ(unreachable.exit_code, 2);
    EXPECT_EQ(unreachable.output["error"], "io");
  }
}

TEST_P(StorageTool, TOOL_4_HelpPrintsTheUsageAndExitsZero) {
  record_spec("§2.4", "TOOL-4");
  for (const char* flag : {"--help", "-h"}) {
    const auto [exit_code, text] = run_storage_tool_text({flag});
    EXPECT_EQ(exit_code, 0) << flag;
    EXPECT_THAT(text, ::testing::StartsWith("usage: ssp-storage check   --schema FILE")) << flag;
    EXPECT_THAT(text, HasSubstr("exit: 0 servable, 1 refused, 2 usage or I/O error")) << flag;
  }
}

// The message of a failed run: one line naming `named`, without internal SQL
// or a trailing newline.
void expect_one_line_message(const StorageToolRun& run, const std::string& kind,
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
  expect_one_line_message(run_storage_tool({"check", "--schema", v3, "--bogus"}), "usage",
                          "unknown option --bogus");
  expect_one_line_message(run_storage_tool({"check", "--schema", v3, "--sqlite"}), "usage",
                          "--sqlite needs a value");
  const std::string directory = directory_.string();
  expect_one_line_message(run_storage_tool({"check", "--schema", v3, "--sqlite", directory}), "io",
                          directory + " is a directory, not a SQLite database file");
  expect_one_line_message(run_storage_tool({"check", "--schema", directory, "--sqlite", directory}),
                          "io", "schema file " + directory + " is a directory");
  // SQLite fails on its first statement, a BEGIN, for a file that is not a database.
  const std::string text = (directory_ / "notes.txt").string();
  std::ofstream(text) << "id,title\n1,groceries\n";
  expect_one_line_message(run_storage_tool({"check", "--schema", v3, "--sqlite", text}), "io",
                          "file is not a database");
  if (backend() == Backend::postgres) {
    // libpq's message has a second, indented line and a trailing newline.
    expect_one_line_message(run_storage_tool({"check", "--schema", v3, "--pg",
                                              "host=127.0.0.1 port=1 connect_timeout=2"}),
                            "io", "connection to server at \"127.0.0.1\", port 1 failed");
  }
}

TEST_P(StorageTool, TOOL_6_ASchemaFileWithAByteOrderMarkIsRefused) {
  record_spec("§2.4", "TOOL-6");
  const std::string schema = read_text_file(kFixtures + "/example_v3.schema.json");
  const std::string marked = (directory_ / "marked.json").string();
  std::ofstream(marked) << "\xEF\xBB\xBF" << schema;
  const StorageToolRun refused = tool("check", marked);
  EXPECT_EQ(refused.exit_code, 2) << refused.output.dump();
  EXPECT_EQ(refused.output.value("error", "(no error)"), "schema");
  EXPECT_THAT(refused.output.value("message", "(no message)"),
              HasSubstr("not valid JSON: a byte-order mark (U+FEFF) precedes the value"));
  // The same text without the mark is the fixture schema, served.
  const std::string plain = (directory_ / "plain.json").string();
  std::ofstream(plain) << schema;
  EXPECT_EQ(tool("check", plain).exit_code, 0);
}

TEST_P(StorageTool, EJ_9_ASchemaFileWithEdgeJsonIsASchemaErrorAndChangesNothing) {
  record_spec("§2.4", "EJ-9");
  const std::string site = edge_json_schema_template();
  const std::string before = dump();
  for (const EdgeJsonCase& c : edge_json_cases()) {
    SCOPED_TRACE(c.name());
    const auto text = c.document("schema", site);
    if (!text) continue;
    const std::string path = (directory_ / "edge.json").string();
    std::ofstream(path, std::ios::binary | std::ios::trunc) << *text;
    for (const char* command : {"check", "migrate"}) {
      SCOPED_TRACE(command);
      const StorageToolRun refused = tool(command, path);
      EXPECT_EQ(refused.exit_code, 2) << refused.output.dump();
      EXPECT_EQ(refused.output.value("error", "(no error)"), "schema");
      EXPECT_FALSE(has_json_library_text(refused.output.value("message", "")))
          << refused.output.dump();
    }
    EXPECT_EQ(dump(), before) << "nothing written";
  }
}

// log and verify over a log the reference's push pipeline (candidate().push()
// — the reference in this executable) wrote.
class StorageToolLog : public PushTest {
 protected:
  std::vector<std::string> target() {
    const DatabaseLocation& location = database().location();
    if (backend() == Backend::sqlite) return {"--sqlite", location.sqlite_path};
    return {"--pg", location.pg_dsn, "--pg-schema", location.pg_schema};
  }

  // The exit code and stdout of `command` on this test's database, which
  // must be the same before and after (the tool never writes).
  std::pair<int, std::string> inspect(std::vector<std::string> args) {
    for (const auto& arg : target()) args.push_back(arg);
    const std::string before = fingerprint();
    auto run = run_storage_tool_text(args);
    EXPECT_EQ(fingerprint(), before) << "ssp-storage changed the database: " << args.at(0);
    return run;
  }

  // SQLite: the bytes of the file and its WAL after a checkpoint, and every
  // table's rows. PostgreSQL: the schema's relations and every table's rows.
  std::string fingerprint() {
    if (backend() == Backend::sqlite) {
      database().exec("PRAGMA wal_checkpoint(TRUNCATE)");
      const std::string path = database().location().sqlite_path;
      return file_text_or_empty(path) + "\n-- wal\n" + file_text_or_empty(path + "-wal") +
             "\n-- rows\n" + dump();
    }
    std::string out;
    for (const auto& relation : database().query_column(
             "SELECT relname FROM pg_class WHERE relnamespace = current_schema()::regnamespace "
             "ORDER BY relname")) {
      out += relation + '\n';
    }
    return out + dump();
  }

  // Three commits on "acme": t1 and m1 inserted, t1 updated, t1 deleted;
  // one on "other".
  void write_log() {
    ASSERT_EQ(apply(commit("c1", {upsert("tasks", "t1", task("t1", "p1", "a")),
                                  upsert("members", "m1", member("m1", "o1", "a@x"))})),
              1);
    ASSERT_EQ(apply(commit("c2", {upsert("tasks", "t1", task("t1", "p1", "b"), 1)}, "client-2")),
              2);
    ASSERT_EQ(apply(commit("c3", {remove("tasks", "t1")})), 3);
    const auto other = push(commit("c1", {upsert("tasks", "t9", task("t9", "p9"))}),
                            actor(all_scopes(), "other"), options());
    ASSERT_EQ(other.status, push::PushAnswerStatus::applied);
  }
};
SSP_SQL_BACKENDS(StorageToolLog);

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST_P(StorageToolLog, TOOL_7_LogPrintsTheCommitsAfterASeqOldestFirstOnePerLine) {
  record_spec("§2.1", "TOOL-7");
  write_log();
  if (HasFatalFailure()) return;
  // Payloads built by hand and encoded by python3 base64.b64encode: a zero
  // null-flags byte, each string as a u32 little-endian length and its bytes,
  // a boolean as one byte (tasks t1 p1 "a" false = 00 02000000 7431 02000000
  // 7031 01000000 61 00). Seqs, keys, versions, scopes and times by hand (the
  // clock starts at 1000, one read per push).
  const std::string c1 =
      R"({"commitSeq":1,"clientId":"client-1","clientCommitId":"c1","actorId":"user-1","createdAtMs":1000,"changes":[)"
      R"({"table":"tasks","rowId":"t1","op":"upsert","rowVersion":1,"scopes":{"project_id":"p1"},"payload":"AAIAAAB0MQIAAABwMQEAAABhAA=="},)"
      R"({"table":"members","rowId":"m1","op":"upsert","rowVersion":1,"scopes":{"org_id":"o1"},"payload":"AAIAAABtMQIAAABvMQMAAABhQHg="}]})";
  const std::string c2 =
      R"({"commitSeq":2,"clientId":"client-2","clientCommitId":"c2","actorId":"user-1","createdAtMs":1001,"changes":[)"
      R"({"table":"tasks","rowId":"t1","op":"upsert","rowVersion":2,"scopes":{"project_id":"p1"},"payload":"AAIAAAB0MQIAAABwMQEAAABiAA=="}]})";
  const std::string c3 =
      R"({"commitSeq":3,"clientId":"client-1","clientCommitId":"c3","actorId":"user-1","createdAtMs":1002,"changes":[)"
      R"({"table":"tasks","rowId":"t1","op":"delete","rowVersion":null,"scopes":{"project_id":"p1"},"payload":null}]})";
  const auto log = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "log");
    const auto [exit_code, text] = inspect(args);
    EXPECT_EQ(exit_code, 0) << text;
    return lines_of(text);
  };
  using Lines = std::vector<std::string>;
  EXPECT_EQ(log({"--partition", "acme"}), (Lines{c1, c2, c3}));
  EXPECT_EQ(log({"--partition", "acme", "--after", "1"}), (Lines{c2, c3}));
  EXPECT_EQ(log({"--partition", "acme", "--after", "0", "--limit", "2"}), (Lines{c1, c2}));
  EXPECT_EQ(log({"--partition", "acme", "--after", "3"}), Lines{});
  EXPECT_EQ(log({"--partition", "nowhere"}), Lines{});
  EXPECT_THAT(log({"--partition", "other"}),
              ::testing::ElementsAre(HasSubstr(R"("clientCommitId":"c1")")));
  // Usage errors exit 2 with the tool's error object.
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"log"}, {"log", "--partition", "acme", "--limit", "0"},
        {"log", "--partition", "acme", "--after", "-1"},
        {"log", "--partition", "acme", "--schema", "x.json"}}) {
    const auto [exit_code, text] = inspect(bad);
    EXPECT_EQ(exit_code, 2) << bad.back();
    EXPECT_THAT(text, HasSubstr(R"("error":"usage")")) << bad.back();
  }
}

TEST_P(StorageToolLog, TOOL_8_VerifyNamesTheFirstBrokenInvariantAndExitsOne) {
  record_spec("§2.1", "TOOL-8");
  write_log();
  if (HasFatalFailure()) return;
  const auto verify = [&](std::vector<std::string> args = {}) {
    args.insert(args.begin(), "verify");
    return inspect(args);
  };
  using Run = std::pair<int, std::string>;
  EXPECT_EQ(verify(), (Run{0, "ok partitions=2 commits=4 changes=5 pushResults=4\n"}));
  EXPECT_EQ(verify({"--partition", "acme"}),
            (Run{0, "ok partitions=1 commits=3 changes=4 pushResults=3\n"}));
  EXPECT_EQ(verify({"--partition", "nowhere"}),
            (Run{0, "ok partitions=0 commits=0 changes=0 pushResults=0\n"}));
  // t1 again after its delete: a new incarnation, version 1.
  ASSERT_EQ(apply(commit("c4", {upsert("tasks", "t1", task("t1", "p1", "c"))})), 4);
  EXPECT_EQ(verify({"--partition", "acme"}),
            (Run{0, "ok partitions=1 commits=4 changes=5 pushResults=4\n"}));
  database().exec("UPDATE sync_changes SET row_version = 3 WHERE partition = 'acme' AND "
                  "commit_seq = 4");
  EXPECT_EQ(verify(), (Run{1, "violation P5 partition \"acme\" seq 4 table \"tasks\" row \"t1\": "
                              "row version 3 where 1 was expected\n"}));
  database().exec("DELETE FROM sync_changes WHERE partition = 'acme' AND commit_seq = 4");
  database().exec("DELETE FROM sync_commits WHERE partition = 'acme' AND commit_seq = 4");
  database().exec("DELETE FROM sync_push_results WHERE partition = 'acme' AND "
                  "client_commit_id = 'c4'");
  database().exec("UPDATE sync_partitions SET max_commit_seq = 3 WHERE partition = 'acme'");
  ASSERT_EQ(verify().first, 0);

  // A version chain 1, 3: t1's update says 3.
  database().exec("UPDATE sync_changes SET row_version = 3 WHERE partition = 'acme' AND "
                  "commit_seq = 2");
  EXPECT_EQ(verify(), (Run{1, "violation P5 partition \"acme\" seq 2 table \"tasks\" row \"t1\": "
                              "row version 3 where 2 was expected\n"}));
  EXPECT_EQ(verify({"--partition", "other"}).first, 0);
  database().exec("UPDATE sync_changes SET row_version = 2 WHERE partition = 'acme' AND "
                  "commit_seq = 2");
  ASSERT_EQ(verify().first, 0);

  // A second commit row for one key (c1 of client-1 again, at seq 4).
  database().exec("INSERT INTO sync_commits (partition, commit_seq, client_id, client_commit_id, "
                  "actor_id, created_at_ms) VALUES ('acme', 4, 'client-1', 'c1', 'user-1', 1)");
  database().exec("UPDATE sync_partitions SET max_commit_seq = 4 WHERE partition = 'acme'");
  EXPECT_EQ(verify(), (Run{1, "violation P2 partition \"acme\" seq 4: client \"client-1\" commit "
                              "\"c1\" already has commit seq 1\n"}));
  database().exec("DELETE FROM sync_commits WHERE partition = 'acme' AND commit_seq = 4");
  EXPECT_EQ(verify(), (Run{1, "violation P1 partition \"acme\" seq 4: max_commit_seq is 4 but the "
                              "commits run 1..3\n"}));
  database().exec("UPDATE sync_partitions SET max_commit_seq = 3 WHERE partition = 'acme'");
  ASSERT_EQ(verify().first, 0);

  // A gap: seq 2 gone.
  database().exec("DELETE FROM sync_changes WHERE partition = 'acme' AND commit_seq = 2");
  database().exec("DELETE FROM sync_commits WHERE partition = 'acme' AND commit_seq = 2");
  EXPECT_EQ(verify(), (Run{1, "violation P1 partition \"acme\" seq 2: missing (the next stored "
                              "seq is 3)\n"}));
  // The stored result of c2 now names a commit row that is gone: verify of
  // the same database with the gap closed reports it.
  database().exec("UPDATE sync_commits SET commit_seq = 2 WHERE partition = 'acme' AND "
                  "commit_seq = 3");
  database().exec("UPDATE sync_changes SET commit_seq = 2 WHERE partition = 'acme' AND "
                  "commit_seq = 3");
  database().exec("UPDATE sync_partitions SET max_commit_seq = 2 WHERE partition = 'acme'");
  EXPECT_EQ(verify(), (Run{1, "violation P2 partition \"acme\" client \"client-1\" commit \"c3\": "
                              "applied result names seq 3 but the key's commit row is seq 2\n"}));

  // Not a server storage database: exit 2.
  auto empty = fresh_database();
  std::vector<std::string> args = {"verify"};
  if (backend() == Backend::sqlite) {
    empty->exec("CREATE TABLE unrelated (x INTEGER)");
    args.insert(args.end(), {"--sqlite", empty->location().sqlite_path});
  } else {
    args.insert(args.end(), {"--pg", empty->location().pg_dsn, "--pg-schema",
                             empty->location().pg_schema});
  }
  const auto [exit_code, text] = run_storage_tool_text(args);
  EXPECT_EQ(exit_code, 2) << text;
  EXPECT_THAT(text, HasSubstr("no sync_commits table"));
}

}  // namespace
}  // namespace ssp::harness
