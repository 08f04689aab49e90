// The ssp-segments operator tool (docs/ssp-segments.md): the built binary run
// as a separate process over real SQLite files and PostgreSQL schemas. Every
// run checks that the database is unchanged (the tool opens stores read-only).
#include <gmock/gmock.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>

#include "harness/fixtures/edge_json_cases.hpp"
#include "harness/fixtures/fixture_files.hpp"
#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/util/child_process.hpp"
#include "harness/util/file_text.hpp"
#include "harness/util/require_found.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/segments/find_key_text.hpp"
#include "ssp/segments/segment_id.hpp"
#include "wire/segment_json.hpp"

namespace ssp::harness {
namespace {

using Json = nlohmann::ordered_json;
using ::testing::HasSubstr;

// Row R of fixtures/segments-0.21/: bytes 01 02 03 (their golden id, §5.1),
// digest-d, published at kNow with the default TTL; the fixture's second row
// is a rows page.
constexpr const char* kLegacyId =
    "sha256:039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81";
constexpr const char* kLegacyPageId =
    "sha256:3660315a9af3df255d8f19ab077e4797822b41488a0e2a04bc6af71213c23274";
constexpr std::int64_t kLegacyCreated = kNow;
constexpr std::int64_t kLegacyExpires = kNow + kTtl;

SegmentMetadata legacy_metadata() { return with_digest(base_metadata(), "digest-d"); }

// Why the memory backend is skipped.
constexpr const char* kToolNeedsSql = "ssp-segments opens SQLite files and PostgreSQL schemas";

// A well-formed id no test stores.
const std::string kAbsentId = "sha256:" + std::string(64, '0');

struct ToolRun {
  int exit_code = -1;
  std::string out;
  std::string err;

  // Kept non-const by callers that index it: operator[] on a const Json with
  // a missing key is undefined behaviour (an assertion), not a failure.
  Json json() const {
    try {
      return Json::parse(out);
    } catch (const Json::parse_error& error) {
      ADD_FAILURE() << "stdout is not one JSON value: " << error.what() << "\n" << out;
      return Json();
    }
  }
};

// Runs the built ssp-segments with `args` (no shell).
ToolRun run_tool(const std::vector<std::string>& args) {
  const ChildRun child = run_child(SSP_SEGMENTS_TOOL, args);
  ToolRun run;
  if (child.exited) {
    run.exit_code = child.exit_code;
  } else {
    ADD_FAILURE() << "ssp-segments did not exit normally (signal " << child.signal << ")";
  }
  run.out = child.out;
  run.err = child.err;
  return run;
}

// The seven find-key fields of `metadata` as the tool reads them.
Json key_json(const SegmentMetadata& metadata) {
  Json key = wire::metadata_to_json(metadata);
  for (const char* field : {"rowCount", "rowCursor", "nextRowCursor"}) key.erase(field);
  return key;
}

std::string hex(const Bytes& bytes) {
  std::string out;
  for (const std::uint8_t byte : bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    out += kDigits[byte >> 4];
    out += kDigits[byte & 0x0f];
  }
  return out;
}

// A failed run as an operator sees it: exit 2, nothing on stdout, and one
// line on stderr that names `named`, without internal SQL or a server's
// context lines, and without trailing whitespace.
void expect_one_line_error(const ToolRun& run, const std::string& named) {
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr(named));
  EXPECT_THAT(run.err, ::testing::StartsWith("ssp-segments: "));
  ASSERT_FALSE(run.err.empty());
  const std::string line = run.err.substr(0, run.err.size() - 1);
  EXPECT_EQ(run.err.back(), '\n');
  EXPECT_EQ(line.find('\n'), std::string::npos) << "more than one line: " << run.err;
  EXPECT_FALSE(line.ends_with(" ") || line.ends_with("\t") || line.ends_with("\r")) << run.err;
  for (const char* sql : {"SELECT", "CREATE", "PRAGMA", "BEGIN", "LINE 1", " in: "}) {
    EXPECT_THAT(run.err, ::testing::Not(HasSubstr(sql))) << "internal SQL shown";
  }
}

class SspSegmentsTool : public SegmentStoreTest {
 protected:
  // --sqlite PATH, or --pg DSN --pg-schema NAME, for this test's database.
  std::vector<std::string> database_args() {
    const DatabaseLocation& location = database().location();
    if (backend() == Backend::sqlite) return {"--sqlite", location.sqlite_path};
    return {"--pg", location.pg_dsn, "--pg-schema", location.pg_schema};
  }

  // Runs the tool over this test's database and checks the database is the
  // same afterwards, whatever the command did.
  ToolRun run(const std::vector<std::string>& command) {
    std::vector<std::string> args = database_args();
    args.insert(args.end(), command.begin(), command.end());
    const std::string before = fingerprint();
    ToolRun result = run_tool(args);
    EXPECT_EQ(fingerprint(), before) << "ssp-segments changed the database: " << command.at(0);
    return result;
  }

  // SQLite: digests of the database file (schema included) and of its WAL,
  // absent = empty, after a checkpoint. PostgreSQL: the relations of the
  // schema and every row of the segment tables.
  std::string fingerprint() {
    if (backend() == Backend::sqlite) {
      const auto digest = [](const std::string& bytes) {
        return sha256_segment_id(
            std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
      };
      database().exec("PRAGMA wal_checkpoint(TRUNCATE)");
      const std::string path = database().location().sqlite_path;
      return digest(file_text_or_empty(path)) + " wal " + digest(file_text_or_empty(path + "-wal"));
    }
    const std::vector<std::string> relations = database().query_column(
        "SELECT relname FROM pg_class WHERE relnamespace = current_schema()::regnamespace "
        "ORDER BY relname");
    std::string out;
    for (const auto& relation : relations) out += relation + '\n';
    return relations.empty() ? out : out + database().dump_segment_tables();
  }
};
SSP_ALL_BACKENDS(SspSegmentsTool);

TEST_P(SspSegmentsTool, ADM_TOOL_1_StatsPrintsTheStoreCountersWithUpstreamNames) {
  record_spec("§5.1", "ADM-TOOL-1");
  SSP_REQUIRE_SQL(kToolNeedsSql);
  store();  // creates the (empty) tables
  const ToolRun empty = run({"stats"});
  EXPECT_EQ(empty.exit_code, 0) << empty.err;
  EXPECT_EQ(empty.out, "{\"count\":0,\"bytes\":0,\"rowsSegments\":0,\"sqliteSegments\":0}\n");

  SegmentMetadata rows = base_metadata();
  rows.media_type = MediaType::rows;
  store().put(base_metadata(), payload("sqlite-1"), kNow);
  store().put(with_digest(base_metadata(), "digest-b"), payload("sqlite-1"), kNow);
  store().put(rows, payload("rows-22"), kNow - 2 * kTtl);  // expired still counts
  const ToolRun stats = run({"stats"});
  EXPECT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_EQ(stats.out, "{\"count\":2,\"bytes\":15,\"rowsSegments\":1,\"sqliteSegments\":1}\n");
  EXPECT_EQ(stats.json(), wire::stats_to_json(store().stats()));
  EXPECT_EQ(stats.err, "");

  const ToolRun indented = run({"--pretty", "stats"});
  EXPECT_EQ(indented.exit_code, 0) << indented.err;
  EXPECT_EQ(indented.json(), stats.json());
  EXPECT_THAT(indented.out, HasSubstr("\n  \"count\": 2,\n"));
}

TEST_P(SspSegmentsTool, ADM_TOOL_2_GetPrintsTheRecordEveryPublicationAndHexBytes) {
  record_spec("§5.1", "ADM-TOOL-2");
  SSP_REQUIRE_SQL(kToolNeedsSql);
  const Bytes bytes = {0x00, 0xff, 0x10, 0xab};
  SegmentMetadata paged = with_digest(base_metadata(), "digest-b");
  paged.partition = "p2";
  paged.row_cursor = "row-100";
  const std::string id = store().put(base_metadata(), bytes, kNow).segment_id;
  store().put(paged, bytes, kNow + kHour);

  const ToolRun got = run({"get", id});
  EXPECT_EQ(got.exit_code, 0) << got.err;
  Json json = got.json();
  Json expected = wire::record_to_json(require_found(store().get(id), "get(id)").record);
  expected["bytes"] = hex(bytes);
  EXPECT_EQ(json, expected);

  // The upstream names, in the upstream order, spelled out once here.
  std::vector<std::string> keys;
  for (const auto& [key, value] : json.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"segmentId", "partition", "logEpoch", "table", "schemaVersion",
                                "mediaType", "scopeDigest", "asOfCommitSeq", "rowCount",
                                "rowCursor", "nextRowCursor", "byteLength", "createdAtMs",
                                "expiresAtMs", "scopeDigests", "publications", "bytes"}));
  EXPECT_EQ(json["partition"], "p2");  // the top level is the latest publisher
  EXPECT_EQ(json["scopeDigests"], Json::array({"digest-b", "digest-a"}));
  ASSERT_EQ(json["publications"].size(), 2u);
  EXPECT_EQ(json["publications"][0]["partition"], "p");
  EXPECT_EQ(json["publications"][0]["rowCursor"], nullptr);
  EXPECT_EQ(json["publications"][1]["rowCursor"], "row-100");
  EXPECT_EQ(json["publications"][1]["createdAtMs"], kNow + kHour);
  EXPECT_EQ(json["bytes"], "00ff10ab");

  const ToolRun without = run({"get", "--no-bytes", id});
  EXPECT_EQ(without.exit_code, 0) << without.err;
  expected.erase("bytes");
  EXPECT_EQ(without.json(), expected);
}

TEST_P(SspSegmentsTool, ADM_TOOL_3_GetOfAnUnknownOrMalformedIdPrintsNotFound) {
  record_spec("§5.1", "ADM-TOOL-3");
  SSP_REQUIRE_SQL(kToolNeedsSql);
  store().put(base_metadata(), payload("present"), kNow);
  for (const std::string& id : {kAbsentId, std::string("sha256:short"), std::string("x'; --")}) {
    const ToolRun got = run({"get", id});
    EXPECT_EQ(got.exit_code, 1) << id;
    EXPECT_EQ(got.json(), Json({{"error", {{"code", "not_found"}, {"segmentId", id}}}}));
    EXPECT_EQ(got.err, "");
  }
}

TEST_P(SspSegmentsTool, ADM_TOOL_4_FindPrintsTheNarrowedLivePublicationOrFoundFalse) {
  record_spec("§5.3", "ADM-TOOL-4");
  SSP_REQUIRE_SQL(kToolNeedsSql);
  const SegmentMetadata b = with_digest(base_metadata(), "digest-b");
  const std::string id = store().put(base_metadata(), payload("shared"), kNow).segment_id;
  store().put(b, payload("shared"), kNow + kHour);

  const std::string now = std::to_string(kNow + 2 * kHour);
  const ToolRun found = run({"find", key_json(b).dump(), "--now", now});
  EXPECT_EQ(found.exit_code, 0) << found.err;
  Json json = found.json();
  EXPECT_EQ(json, wire::record_to_json(
                      require_found(store().find(find_key_of(b), kNow + 2 * kHour), "find(b)")));
  EXPECT_EQ(json["segmentId"], id);
  EXPECT_EQ(json["scopeDigests"], Json::array({"digest-b"}));
  EXPECT_EQ(json["createdAtMs"], kNow + kHour);  // the publication's own times
  EXPECT_EQ(json["publications"].size(), 1u);

  // Options may come first; a whole record is a key for its top level.
  const ToolRun from_record =
      run({"find", "--now", now, run({"get", "--no-bytes", id}).out});
  EXPECT_EQ(from_record.exit_code, 0) << from_record.err;
  EXPECT_EQ(from_record.json(), json);

  SegmentMetadata other_epoch = b;
  other_epoch.log_epoch = "epoch-2";
  const std::string expired = std::to_string(kNow + kTtl);  // digest-a is expired then
  for (const auto& [key, at] : {std::pair{key_json(other_epoch), now},
                                std::pair{key_json(base_metadata()), expired}}) {
    const ToolRun missing = run({"find", key.dump(), "--now", at});
    EXPECT_EQ(missing.exit_code, 1) << key.dump() << " at " << at;
    EXPECT_EQ(missing.out, "{\"found\":false}\n");
  }
}

TEST_P(SspSegmentsTool, ADM_TOOL_5_FindRefusesABadKeyOrNowNamingIt) {
  record_spec("§5.3", "ADM-TOOL-5");
  SSP_REQUIRE_SQL(kToolNeedsSql);
  store();  // creates the (empty) tables
  const Json key = key_json(base_metadata());
  const auto expect_refused = [&](const std::vector<std::string>& command,
                                  const std::string& named) {
    const ToolRun refused = run(command);
    EXPECT_EQ(refused.exit_code, 2) << command.at(1);
    EXPECT_EQ(refused.out, "");
    EXPECT_THAT(refused.err, HasSubstr(named)) << command.at(1);
  };
  for (const auto& item : key.items()) {
    Json missing = key;
    missing.erase(item.key());
    expect_refused({"find", missing.dump(), "--now", "1"}, "find key: " + item.key() + ": missing");
  }
  const std::pair<const char*, Json> mistyped[] = {
      {"schemaVersion", "1"},       {"asOfCommitSeq", 1.5},
      {"asOfCommitSeq", 1LL << 53}, {"mediaType", "csv"},
      {"partition", 7},             {"logEpoch", nullptr},
  };
  for (const auto& [field, value] : mistyped) {
    Json bad = key;
    bad[field] = value;
    expect_refused({"find", bad.dump(), "--now", "1"}, std::string("find key: ") + field);
  }
  expect_refused({"find", "{\"partition\": ", "--now", "1"}, "not valid JSON");
  expect_refused({"find", key.dump()}, "--now");
  expect_refused({"find", key.dump(), "--now", "soon"}, "--now");
  expect_refused({"find", key.dump(), "--now", "9007199254740992"}, "--now");
  expect_refused({"find", "--now", "1"}, "KEY_JSON");
}

TEST_P(SspSegmentsTool, ADM_TOOL_6_VerifyPassesACleanStoreAndListsLegacyRowsAsInformation) {
  record_spec("§5.1", "ADM-TOOL-6");
  SSP_REQUIRE_SQL(kToolNeedsSql);
  store();  // creates the (empty) tables
  const ToolRun empty = run({"verify"});
  EXPECT_EQ(empty.exit_code, 0) << empty.err;
  EXPECT_EQ(empty.out,
            "{\"segmentsChecked\":0,\"corrupt\":false,\"mismatchedIds\":[],\"orphanScopeIds\":[],"
            "\"orphanPublicationIds\":[],\"legacyIds\":[]}\n");

  const std::string a = store().put(base_metadata(), payload("a"), kNow).segment_id;
  const std::string b = store().put(base_metadata(), Bytes{}, kNow).segment_id;
  store().put(with_digest(base_metadata(), "digest-b"), payload("a"), kNow);
  const ToolRun clean = run({"verify"});
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  EXPECT_EQ(clean.json()["segmentsChecked"], 2);
  EXPECT_EQ(clean.json()["corrupt"], false);

  // An intermediate-format row: scopes but no publication rows.
  database().exec("DELETE FROM sync_segment_publications WHERE segment_id = '" + b + "'");
  const ToolRun legacy = run({"verify"});
  EXPECT_EQ(legacy.exit_code, 0) << "legacy rows are information, not corruption";
  EXPECT_EQ(legacy.json()["legacyIds"], Json::array({b}));
  EXPECT_EQ(legacy.json()["corrupt"], false);
  EXPECT_EQ(legacy.json()["mismatchedIds"], Json::array());
}

TEST_P(SspSegmentsTool, ADM_TOOL_7_VerifyReportsStoredBytesThatDoNotHashToTheirId) {
  record_spec("§5.1", "ADM-TOOL-7");
  SSP_REQUIRE_SQL("the corruption is an UPDATE of the stored bytes");
  std::vector<std::string> ids;
  for (const char* name : {"one", "two", "three", "four"}) {
    ids.push_back(store().put(base_metadata(), payload(name), kNow).segment_id);
  }
  corrupt_stored_bytes(ids[3]);
  corrupt_stored_bytes(ids[1]);
  const ToolRun verify = run({"verify"});
  EXPECT_EQ(verify.exit_code, 1) << verify.err;
  Json json = verify.json();
  EXPECT_EQ(json["corrupt"], true);
  EXPECT_EQ(json["segmentsChecked"], 4);
  EXPECT_EQ(json["mismatchedIds"], Json::array({std::min(ids[1], ids[3]), std::max(ids[1], ids[3])}));
  EXPECT_EQ(json["orphanScopeIds"], Json::array());
  EXPECT_EQ(json["orphanPublicationIds"], Json::array());
  EXPECT_EQ(json["legacyIds"], Json::array());
}

TEST_P(SspSegmentsTool, ADM_TOOL_8_VerifyReportsSideTableRowsWithoutASegment) {
  record_spec("§5.1", "ADM-TOOL-8");
  SSP_REQUIRE_SQL("orphans are made by deleting rows");
  const std::string kept = store().put(base_metadata(), payload("kept"), kNow).segment_id;
  const std::string gone = store().put(base_metadata(), payload("gone"), kNow).segment_id;
  database().exec("DELETE FROM sync_segments WHERE segment_id = '" + gone + "'");
  database().exec("INSERT INTO sync_segment_scopes(segment_id, scope_digest) VALUES ('" +
                  kAbsentId + "', 'digest-z')");
  const ToolRun verify = run({"verify"});
  EXPECT_EQ(verify.exit_code, 1) << verify.err;
  Json json = verify.json();
  EXPECT_EQ(json["corrupt"], true);
  EXPECT_EQ(json["segmentsChecked"], 1);
  EXPECT_EQ(json["mismatchedIds"], Json::array());
  EXPECT_EQ(json["orphanScopeIds"], Json::array({std::min(gone, kAbsentId), std::max(gone, kAbsentId)}));
  EXPECT_EQ(json["orphanPublicationIds"], Json::array({gone}));
  EXPECT_EQ(json["legacyIds"], Json::array());
  EXPECT_EQ(run({"get", kept}).exit_code, 0);
}

TEST_P(SspSegmentsTool, ADM_TOOL_9_NoCommandChangesAFreshOrMissingDatabase) {
  record_spec("§5.1", "ADM-TOOL-9");
  SSP_REQUIRE_SQL(kToolNeedsSql);
  // No segment tables yet: the tool must not create them, and no command
  // answers as if an empty store were there.
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"stats"}, {"get", kAbsentId}, {"verify"},
        {"find", key_json(base_metadata()).dump(), "--now", "1"}}) {
    SCOPED_TRACE(command[0]);
    expect_one_line_error(run(command), "no segment tables (no sync_segments table)");
  }
  if (backend() == Backend::sqlite) {
    EXPECT_EQ(database().query_column("SELECT name FROM sqlite_master"),
              std::vector<std::string>{});
  }
}

// Seeds the harness database with 0.21-era rows without opening a store.
class SspSegmentsToolLegacy : public SspSegmentsTool {
 protected:
  void seed(const std::string& fixture) {
    database().exec(read_fixture("segments-0.21/" + fixture));
  }

  // Runs every command and returns their outputs, keyed by command.
  std::map<std::string, ToolRun> run_every_command(const Json& key) {
    std::map<std::string, ToolRun> runs;
    runs["stats"] = run({"stats"});
    runs["get"] = run({"get", kLegacyId});
    runs["find"] = run({"find", key.dump(), "--now", std::to_string(kLegacyCreated + 1)});
    runs["verify"] = run({"verify"});
    return runs;
  }

  // After a real (read-write) open has upgraded the file, the store answers
  // exactly what the tool printed before the upgrade.
  void expect_answers_match_upgraded_store(const std::map<std::string, ToolRun>& runs,
                                           const SegmentFindKey& key) {
    SegmentStore& upgraded = store();
    EXPECT_EQ(runs.at("stats").json(), wire::stats_to_json(upgraded.stats()));
    Json record = wire::record_to_json(require_found(upgraded.get(kLegacyId), "get(kLegacyId)").record);
    record["bytes"] = "010203";
    EXPECT_EQ(runs.at("get").json(), record);
    const auto found = upgraded.find(key, kLegacyCreated + 1);
    EXPECT_EQ(runs.at("find").json(), found ? wire::record_to_json(*found) : Json({{"found", false}}));
  }
};
// SQLite only: 0.21 databases exist only as SQLite files (upstream had no
// PostgreSQL segment store).
INSTANTIATE_TEST_SUITE_P(, SspSegmentsToolLegacy, ::testing::Values(Backend::sqlite),
                         backend_param_name);

TEST_P(SspSegmentsToolLegacy, ADM_TOOL_10_A021DatabaseAnswersAsUpgradedAndStaysUnchanged) {
  record_spec("§5.1", "ADM-TOOL-10");
  seed("normal.sql");

  const std::map<std::string, ToolRun> runs = run_every_command(key_json(legacy_metadata()));
  for (const auto& [command, result] : runs) {
    EXPECT_EQ(result.exit_code, 0) << command << ": " << result.err;
  }
  EXPECT_EQ(runs.at("get").json()["scopeDigests"], Json::array({"digest-d"}));
  EXPECT_EQ(runs.at("get").json()["publications"][0]["expiresAtMs"], kLegacyExpires);
  EXPECT_EQ(runs.at("find").json()["segmentId"], kLegacyId);
  EXPECT_EQ(runs.at("verify").json()["legacyIds"], Json::array({kLegacyId, kLegacyPageId}));
  EXPECT_EQ(runs.at("verify").json()["corrupt"], false);
  EXPECT_EQ(database().query_column("SELECT name FROM sqlite_master ORDER BY name"),
            (std::vector<std::string>{"sqlite_autoindex_sync_segments_1", "sync_segments"}))
      << "the side tables of the upgrade must not be created by the tool";

  expect_answers_match_upgraded_store(runs, find_key_of(legacy_metadata()));
}

TEST_P(SspSegmentsToolLegacy, ADM_TOOL_11_APreEpochDatabaseAnswersWithAnEmptyEpoch) {
  record_spec("§2.1", "ADM-TOOL-11");
  seed("pre_epoch.sql");
  SegmentMetadata pre_epoch = legacy_metadata();
  pre_epoch.log_epoch = "";

  const std::map<std::string, ToolRun> runs = run_every_command(key_json(pre_epoch));
  EXPECT_EQ(runs.at("get").exit_code, 0) << runs.at("get").err;
  EXPECT_EQ(runs.at("get").json()["logEpoch"], "");
  EXPECT_EQ(runs.at("get").json()["publications"][0]["logEpoch"], "");
  EXPECT_EQ(runs.at("verify").exit_code, 0) << runs.at("verify").err;
  EXPECT_EQ(database().query_column("SELECT count(*) FROM pragma_table_info('sync_segments') "
                                    "WHERE name = 'log_epoch'"),
            std::vector<std::string>{"0"})
      << "the tool must not add the log_epoch column";

  expect_answers_match_upgraded_store(runs, find_key_of(pre_epoch));
}

TEST_P(SspSegmentsTool, ADM_TOOL_12_AnUnreachableDatabaseExitsTwoAndIsNotCreated) {
  record_spec("§5.1", "ADM-TOOL-12");
  SSP_REQUIRE_SQL(kToolNeedsSql);
  if (backend() == Backend::sqlite) {
    const std::string missing = database().location().sqlite_path + ".missing";
    const ToolRun result = run_tool({"--sqlite", missing, "stats"});
    expect_one_line_error(result, "no SQLite database at " + missing);
    EXPECT_FALSE(std::filesystem::exists(missing)) << "a missing file must not be created";
  } else {
    const std::string schema = database().location().pg_schema + "_missing";
    const ToolRun result =
        run_tool({"--pg", database().location().pg_dsn, "--pg-schema", schema, "verify"});
    expect_one_line_error(result, "PostgreSQL schema \"" + schema + "\" does not exist");
    EXPECT_EQ(database().query_column("SELECT nspname FROM pg_namespace WHERE nspname = '" +
                                      schema + "'"),
              std::vector<std::string>{})
        << "a missing schema must not be created";
    // libpq's message has a second, indented line and a trailing newline.
    const ToolRun unreachable =
        run_tool({"--pg", "host=127.0.0.1 port=1 connect_timeout=5", "stats"});
    expect_one_line_error(unreachable, "cannot connect");
  }
}

TEST(SspSegmentsToolUsage, ADM_TOOL_13_UsageErrorsExitTwoNamingTheArgument) {
  record_spec("§5.1", "ADM-TOOL-13");
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"stats"}, "--sqlite PATH or --pg DSN"},
      {{}, "missing COMMAND"},
      {{"--sqlite", "x.db", "frobnicate"}, "unknown command frobnicate"},
      {{"--sqlite"}, "option --sqlite needs a value"},
      {{"--mysql", "x", "stats"}, "unknown option --mysql"},
      {{"--sqlite", "x.db", "--bogus"}, "unknown option --bogus"},
      {{"--sqlite", "x.db", "stats", "--bogus"}, "stats: unexpected option --bogus"},
      {{"--sqlite", "x.db", "--pg", "dsn", "stats"}, "exactly one of --sqlite and --pg"},
      {{"--sqlite", "x.db", "--pg-schema", "s", "stats"}, "--pg-schema needs --pg"},
      {{"--sqlite", "x.db", "get"}, "get: missing ID"},
      {{"--sqlite", "x.db", "get", kAbsentId, "extra"}, "get: unexpected argument extra"},
      {{"--sqlite", "x.db", "stats", "--verbose"}, "stats: unexpected option --verbose"},
      {{"--sqlite", "x.db", "get", "--no-bytes", "--no-bytes", kAbsentId}, "given twice"},
  };
  for (const auto& [args, message] : cases) {
    const ToolRun result = run_tool(args);
    EXPECT_EQ(result.exit_code, 2) << message;
    EXPECT_EQ(result.out, "") << message;
    EXPECT_THAT(result.err, HasSubstr(message));
  }
  EXPECT_FALSE(std::filesystem::exists("x.db")) << "usage errors must not open anything";

  const ToolRun help = run_tool({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  for (const char* command : {"stats", "get ID [--no-bytes]", "find KEY_JSON --now MS", "verify",
                              "scope-digest SCOPES_JSON", "authorize ID --partition P"}) {
    EXPECT_THAT(help.out, HasSubstr(command));
  }
}

TEST(SspSegmentsToolUsage, ADM_TOOL_15_ScopeDigestPrintsCanonicalJsonAndDigest) {
  record_spec("§3.5", "ADM-TOOL-15");
  const ToolRun digest = run_tool({"scope-digest", R"({"b":["y","x","x"],"a":["1"]})"});
  EXPECT_EQ(digest.exit_code, 0) << digest.err;
  EXPECT_EQ(digest.json()["canonicalJson"], R"({"a":["1"],"b":["x","y"]})");
  EXPECT_EQ(digest.json()["scopeDigest"],
            "d6eae071419983e790daed35ef4abff53d8db9edf7718ba8c9f196600c80d457");

  const ToolRun bad = run_tool({"scope-digest", R"({"a":"not a list"})"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_THAT(bad.err, HasSubstr("a"));
}

TEST_P(SspSegmentsTool, ADM_TOOL_17_AWrongFileOrSchemaIsRefusedNeverCalledClean) {
  record_spec("§5.1", "ADM-TOOL-17");
  SSP_REQUIRE_SQL(kToolNeedsSql);
  // Another application's database: tables, but not the segment tables.
  database().exec("CREATE TABLE notes (id TEXT PRIMARY KEY)");
  std::vector<std::pair<std::vector<std::string>, std::string>> targets;
  if (backend() == Backend::sqlite) {
    const std::filesystem::path file = database().location().sqlite_path;
    const std::string directory = file.parent_path().string();
    const std::string text = (file.parent_path() / "notes.txt").string();
    std::ofstream(text) << "id,title\n1,groceries\n";
    targets = {
        {{"--sqlite", file.string()}, file.string() + " holds no segment tables"},
        {{"--sqlite", directory}, directory + " is a directory, not a SQLite database file"},
        {{"--sqlite", text}, text + " is not a SQLite database"},
    };
  } else {
    const DatabaseLocation& location = database().location();
    targets = {{{"--pg", location.pg_dsn, "--pg-schema", location.pg_schema},
                "PostgreSQL schema \"" + location.pg_schema + "\" holds no segment tables"}};
  }
  for (const auto& [target, message] : targets) {
    for (const char* command : {"verify", "stats"}) {
      SCOPED_TRACE(target[1] + " " + command);
      std::vector<std::string> args = target;
      args.push_back(command);
      expect_one_line_error(run_tool(args), message);
    }
  }
}

TEST_P(SspSegmentsTool, ADM_TOOL_18_AFailingQueryIsReportedInOneLineWithoutItsSql) {
  record_spec("§5.1", "ADM-TOOL-18");
  SSP_REQUIRE_SQL(kToolNeedsSql);
  // A table named sync_segments that is not the segment table: the store's
  // own statements fail, and the database's message names a missing column.
  database().exec("CREATE TABLE sync_segments (note TEXT)");
  for (const char* command : {"verify", "stats"}) {
    SCOPED_TRACE(command);
    std::vector<std::string> args = database_args();
    args.push_back(command);
    expect_one_line_error(run_tool(args), "column");
  }
}

TEST_P(SspSegmentsTool, ADM_TOOL_19_JsonArgumentsWithAByteOrderMarkAreRefused) {
  record_spec("§5.5", "ADM-TOOL-19");
  SSP_REQUIRE_SQL(kToolNeedsSql);
  static const std::string kBom = "\xEF\xBB\xBF";
  // {"project_id":["p1"]} hashes to this digest (§3.5 golden value).
  const std::string p1 = R"({"project_id":["p1"]})";
  const std::string p1_digest = "46cf18d6bb2b57ec98116335c988810ed464a447bd574695bc165da7631414f6";
  const std::string id =
      store().put(with_digest(base_metadata(), p1_digest), payload("x"), kNow).segment_id;
  const auto authorize = [&](const std::string& scopes, const std::string& allowed,
                             const std::string& tables) {
    return run({"authorize", id, "--partition", "p", "--epoch", "epoch-1", "--scopes", scopes,
                "--allowed", allowed, "--tables", tables, "--now", std::to_string(kNow + 1)});
  };
  const std::string tables = R"({"tasks":["project_id"]})";

  // Each argument is accepted without the mark: the refusals below are the mark's.
  const ToolRun served = authorize(p1, p1, tables);
  EXPECT_EQ(served.exit_code, 0) << served.err;
  EXPECT_EQ(served.json()["status"], 200);
  // --scopes is the X-Syncular-Scopes header: the decision refuses it, as upstream's JSON.parse.
  const ToolRun header = authorize(kBom + p1, p1, tables);
  EXPECT_EQ(header.exit_code, 1) << header.err;
  EXPECT_EQ(header.json()["status"], 400);
  EXPECT_EQ(header.json()["error"]["code"], "sync.invalid_request");
  expect_one_line_error(authorize(p1, kBom + p1, tables), "--allowed: scope map is not valid JSON");
  expect_one_line_error(authorize(p1, p1, kBom + tables), "--tables: scope map is not valid JSON");

  EXPECT_EQ(run_tool({"scope-digest", p1}).exit_code, 0);
  expect_one_line_error(run_tool({"scope-digest", kBom + p1}), "scope map is not valid JSON");
  const std::string key = key_json(base_metadata()).dump();
  EXPECT_EQ(run({"find", key, "--now", "1"}).exit_code, 1);  // valid, nothing stored under it
  expect_one_line_error(run({"find", kBom + key, "--now", "1"}),
                        "find key: not valid JSON: a byte-order mark (U+FEFF) precedes the value");
}

TEST_P(SspSegmentsTool, EJ_8_JsonArgumentsWithEdgeJsonAreRefusedPlainly) {
  record_spec("§5.5", "EJ-8");
  SSP_REQUIRE_SQL(kToolNeedsSql);
  // {"project_id":["p1"]} hashes to this digest (§3.5 golden value).
  const std::string p1 = R"({"project_id":["p1"]})";
  const std::string p1_digest = "46cf18d6bb2b57ec98116335c988810ed464a447bd574695bc165da7631414f6";
  const std::string id =
      store().put(with_digest(base_metadata(), p1_digest), payload("x"), kNow).segment_id;
  const auto authorize = [&](const std::string& scopes) {
    return run({"authorize", id, "--partition", "p", "--epoch", "epoch-1", "--scopes", scopes,
                "--allowed", p1, "--tables", R"({"tasks":["project_id"]})", "--now",
                std::to_string(kNow + 1)});
  };
  const auto expect_plain_refusal = [](const ToolRun& run, const std::string& named) {
    expect_one_line_error(run, named);
    EXPECT_THAT(run.err, ::testing::Not(HasSubstr("[json.exception")));
  };
  // Linux caps one argument at 128 KiB (MAX_ARG_STRLEN): larger cases cannot be arguments.
  constexpr std::size_t kMaxArgument = 128 * 1024 - 1;
  const std::string scope_site = edge_json_site("scope_map");
  const std::string key_site = edge_json_site("find_key");
  for (const EdgeJsonCase& c : edge_json_cases()) {
    SCOPED_TRACE(c.name());
    if (const auto scopes = c.document("scope_map", scope_site);
        scopes && scopes->size() <= kMaxArgument) {
      // --scopes is the X-Syncular-Scopes header.
      const ToolRun header = authorize(*scopes);
      if (!c.reads_as().is_null()) {
        EXPECT_EQ(header.exit_code, 0) << header.err;
        EXPECT_EQ(header.json()["status"], 200);
        EXPECT_EQ(run_tool({"scope-digest", *scopes}).exit_code, 0);
      } else {
        EXPECT_EQ(header.exit_code, 1) << header.err;
        EXPECT_EQ(header.json()["status"], 400);
        EXPECT_EQ(header.json()["error"]["code"], "sync.invalid_request");
        EXPECT_THAT(header.out, ::testing::Not(HasSubstr("[json.exception")));
        expect_plain_refusal(run_tool({"scope-digest", *scopes}), "scope map");
      }
    }
    if (const auto key = c.document("find_key", key_site); key && key->size() <= kMaxArgument) {
      expect_plain_refusal(run({"find", *key, "--now", "1"}), "find key: ");
    }
  }
}

TEST_P(SspSegmentsTool, ADM_TOOL_16_AuthorizeExplainsTheDownloadDecision) {
  record_spec("§5.5", "ADM-TOOL-16");
  SSP_REQUIRE_SQL(kToolNeedsSql);
  // {"project_id":["p1"]} hashes to this digest (§3.5 golden value).
  const std::string p1_digest = "46cf18d6bb2b57ec98116335c988810ed464a447bd574695bc165da7631414f6";
  const std::string id = store().put(with_digest(base_metadata(), p1_digest), payload("x"), kNow)
                             .segment_id;
  const auto authorize = [&](const std::string& partition, const std::string& scopes) {
    return run({"authorize", id, "--partition", partition, "--epoch", "epoch-1", "--scopes",
                scopes, "--allowed", R"({"project_id":["p1","p2"]})", "--now",
                std::to_string(kNow + 1)});
  };

  const ToolRun allowed = authorize("p", R"({"project_id":["p1"]})");
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_EQ(allowed.json()["status"], 200);
  EXPECT_EQ(allowed.json()["scopeDigest"], p1_digest);
  EXPECT_EQ(allowed.json()["record"]["segmentId"], id);

  const ToolRun other_scopes = authorize("p", R"({"project_id":["p2"]})");
  EXPECT_EQ(other_scopes.exit_code, 1);
  EXPECT_EQ(other_scopes.json()["status"], 403);
  EXPECT_EQ(other_scopes.json()["error"]["code"], "sync.forbidden");

  const ToolRun other_partition = authorize("p2", R"({"project_id":["p1"]})");
  EXPECT_EQ(other_partition.exit_code, 1);
  EXPECT_EQ(other_partition.json()["error"]["code"], "sync.not_found");
}

TEST(SegmentJson, ADM_TOOL_14_FindKeyFromJsonReadsTheSevenKeyFieldsAndNamesABadOne) {
  record_spec("§5.3", "ADM-TOOL-14");
  SegmentMetadata metadata = base_metadata();
  metadata.row_cursor = "ignored";
  const Json record = wire::record_to_json(SegmentRecord{"sha256:x", metadata, {}, {}, 1, 2, 3});
  EXPECT_EQ(find_key_from_text(record.dump()), find_key_of(metadata));

  Json rows = record;
  rows["mediaType"] = "rows";
  rows["asOfCommitSeq"] = (1LL << 53) - 1;
  rows["schemaVersion"] = -((1LL << 53) - 1);
  const SegmentFindKey key = find_key_from_text(rows.dump());
  EXPECT_EQ(key.media_type, MediaType::rows);
  EXPECT_EQ(key.as_of_commit_seq, (1LL << 53) - 1);
  EXPECT_EQ(key.schema_version, -((1LL << 53) - 1));

  const auto message_for = [](const Json& bad) -> std::string {
    try {
      find_key_from_text(bad.dump());
    } catch (const InvalidArgument& error) {
      return error.what();
    }
    return "accepted";
  };
  Json missing = record;
  missing.erase("scopeDigest");
  EXPECT_EQ(message_for(missing), "find key: scopeDigest: missing");
  Json unsigned_big = record;
  unsigned_big["asOfCommitSeq"] = std::uint64_t{1} << 63;
  EXPECT_EQ(message_for(unsigned_big),
            "find key: asOfCommitSeq: integer outside the signed 64-bit range");
  Json negative_big = record;
  negative_big["schemaVersion"] = -(1LL << 53);
  EXPECT_EQ(message_for(negative_big),
            "find key: schemaVersion -9007199254740992 is outside ±(2^53−1)");
  Json nul = record;
  nul["table"] = std::string("ta\0sks", 6);
  EXPECT_EQ(message_for(nul), "find key: table contains U+0000");
  Json csv = record;
  csv["mediaType"] = "csv";
  EXPECT_EQ(message_for(csv), "find key: mediaType: expected \"rows\" or \"sqlite\"");
  EXPECT_EQ(message_for(Json::array()), "find key: (value): expected an object, got array");
}

}  // namespace
}  // namespace ssp::harness
