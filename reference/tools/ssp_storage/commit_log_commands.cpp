#include "commit_log_commands.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>
#include <vector>

#include "ssp/encoding/base64.hpp"
#include "ssp/encoding/json_input.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/storage/stored_scopes.hpp"

namespace ssp::tools {
namespace {

using Json = nlohmann::ordered_json;

void require_log_tables(ReadOnlyDatabase& database) {
  for (const char* table : {"sync_commits", "sync_changes"}) {
    if (!database.has_table(table)) {
      throw StorageError(std::string("no ") + table +
                         " table: not a server storage database (run migrate first)");
    }
  }
}

const std::string& cell(const SqlRow& row, std::size_t at) {
  if (at >= row.size() || !row[at]) throw StorageError("unexpected NULL in a NOT NULL column");
  return *row[at];
}

// A cell holding an integer; a damaged column is a StorageError, not a crash.
std::int64_t integer(const SqlRow& row, std::size_t at) {
  const std::string& text = cell(row, at);
  std::size_t used = 0;
  std::int64_t value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) throw StorageError("not an integer: " + text);
  return value;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  throw StorageError("payload hex is malformed");
}

std::vector<std::uint8_t> from_hex(const std::string& hex) {
  std::vector<std::uint8_t> bytes;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    bytes.push_back(static_cast<std::uint8_t>(hex_digit(hex[i]) * 16 + hex_digit(hex[i + 1])));
  }
  return bytes;
}

// A string as the one-line messages quote it: JSON, so control bytes show.
std::string quoted(const std::string& text) {
  return Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace

void print_commit_log(ReadOnlyDatabase& database, const std::string& partition,
                      std::int64_t after_seq, std::int64_t limit, std::ostream& out) {
  require_log_tables(database);
  const auto commits = database.query(
      "SELECT commit_seq, client_id, client_commit_id, actor_id, created_at_ms FROM sync_commits "
      "WHERE partition = ? AND commit_seq > ? ORDER BY commit_seq LIMIT ?",
      {partition, after_seq, limit});
  if (commits.empty()) return;
  const auto changes = database.query(
      "SELECT commit_seq, tbl, row_id, op, row_version, " + database.text_of("scopes") + ", " +
          database.hex_of("payload") +
          " FROM sync_changes WHERE partition = ? AND commit_seq >= ? AND commit_seq <= ? "
          "ORDER BY commit_seq, idx",
      {partition, integer(commits.front(), 0), integer(commits.back(), 0)});
  std::size_t next_change = 0;
  for (const SqlRow& commit : commits) {
    const std::int64_t seq = integer(commit, 0);
    Json line;
    line["commitSeq"] = seq;
    line["clientId"] = cell(commit, 1);
    line["clientCommitId"] = cell(commit, 2);
    line["actorId"] = cell(commit, 3);
    line["createdAtMs"] = integer(commit, 4);
    line["changes"] = Json::array();
    while (next_change < changes.size() && integer(changes[next_change], 0) < seq) ++next_change;
    for (; next_change < changes.size() && integer(changes[next_change], 0) == seq; ++next_change) {
      const SqlRow& change = changes[next_change];
      Json entry;
      entry["table"] = cell(change, 1);
      entry["rowId"] = cell(change, 2);
      entry["op"] = integer(change, 3) == 2 ? "delete" : "upsert";
      entry["rowVersion"] = change[4] ? Json(integer(change, 4)) : Json(nullptr);
      Json scopes = Json::object();
      for (const auto& [name, value] :
           storage::parse_scopes_json(cell(change, 5), cell(change, 1))) {
        scopes[name] = value;
      }
      entry["scopes"] = scopes;
      entry["payload"] = change[6] ? Json(base64_encode(from_hex(*change[6]))) : Json(nullptr);
      line["changes"].push_back(std::move(entry));
    }
    out << line.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
  }
}

VerifyReport verify_commit_log(ReadOnlyDatabase& database, const std::optional<std::string>& only) {
  require_log_tables(database);
  for (const char* table : {"sync_partitions", "sync_push_results"}) {
    if (!database.has_table(table)) {
      throw StorageError(std::string("no ") + table + " table: not a server storage database");
    }
  }
  // Partitions in byte order, so both backends name the same first violation.
  std::set<std::string> partitions;
  for (const char* sql :
       {"SELECT DISTINCT partition FROM sync_commits", "SELECT partition FROM sync_partitions"}) {
    for (const SqlRow& row : database.query(sql)) partitions.insert(cell(row, 0));
  }
  if (only) partitions = partitions.contains(*only) ? std::set{*only} : std::set<std::string>{};

  VerifyReport report;
  std::int64_t commit_count = 0, change_count = 0, result_count = 0;
  const auto finish = [&] {
    report.summary = "partitions=" + std::to_string(partitions.size()) +
                     " commits=" + std::to_string(commit_count) +
                     " changes=" + std::to_string(change_count) +
                     " pushResults=" + std::to_string(result_count);
    return report;
  };
  for (const std::string& partition : partitions) {
    const std::string where = "partition " + quoted(partition);
    const auto fail = [&](const std::string& rule, const std::string& what) {
      report.violation = rule + " " + where + " " + what;
    };
    // P1: seqs dense from 1, max_commit_seq their count.
    const auto commits = database.query(
        "SELECT commit_seq, client_id, client_commit_id FROM sync_commits WHERE partition = ? "
        "ORDER BY commit_seq",
        {partition});
    commit_count += static_cast<std::int64_t>(commits.size());
    std::int64_t expected_seq = 1;
    for (const SqlRow& commit : commits) {
      const std::int64_t seq = integer(commit, 0);
      if (seq != expected_seq) {
        fail("P1", "seq " + std::to_string(expected_seq) + ": missing (the next stored seq is " +
                       std::to_string(seq) + ")");
        return finish();
      }
      ++expected_seq;
    }
    const auto max_rows = database.query(
        "SELECT max_commit_seq FROM sync_partitions WHERE partition = ?", {partition});
    const std::int64_t max_seq = max_rows.empty() ? 0 : integer(max_rows[0], 0);
    const auto stored = static_cast<std::int64_t>(commits.size());
    if (max_seq != stored) {
      fail("P1", "seq " + std::to_string(std::max(max_seq, stored)) + ": max_commit_seq is " +
                     std::to_string(max_seq) + " but the commits run 1.." + std::to_string(stored));
      return finish();
    }
    // P2: one commit row per idempotency key …
    std::map<std::pair<std::string, std::string>, std::int64_t> seq_of_key;
    for (const SqlRow& commit : commits) {
      const auto key = std::make_pair(cell(commit, 1), cell(commit, 2));
      const auto [at, inserted] = seq_of_key.emplace(key, integer(commit, 0));
      if (!inserted) {
        fail("P2", "seq " + cell(commit, 0) + ": client " + quoted(key.first) + " commit " +
                       quoted(key.second) + " already has commit seq " +
                       std::to_string(at->second));
        return finish();
      }
    }
    // … and every applied stored result names the commit row of its key.
    auto results =
        database.query("SELECT client_id, client_commit_id, " + database.text_of("result") +
                           " FROM sync_push_results WHERE partition = ?",
                       {partition});
    std::sort(results.begin(), results.end());
    result_count += static_cast<std::int64_t>(results.size());
    for (const SqlRow& result : results) {
      const auto key = std::make_pair(cell(result, 0), cell(result, 1));
      const std::string named = "client " + quoted(key.first) + " commit " + quoted(key.second);
      Json parsed;
      try {
        parsed = parse_json_input<Json>(cell(result, 2));
      } catch (const JsonSyntaxError&) {
        // Left null: not a push result, reported below.
      }
      if (!parsed.is_object() || !parsed.contains("status")) {
        fail("P2", named + ": the stored result is not a push result");
        return finish();
      }
      if (parsed["status"] != "applied") continue;
      const auto found = seq_of_key.find(key);
      const Json seq = parsed.value("commitSeq", Json(nullptr));
      if (found == seq_of_key.end()) {
        fail("P2", named + ": applied result names seq " + seq.dump() +
                       " but no commit row has this key");
        return finish();
      }
      if (!seq.is_number_integer() || seq.get<std::int64_t>() != found->second) {
        fail("P2", named + ": applied result names seq " + seq.dump() +
                       " but the key's commit row is seq " + std::to_string(found->second));
        return finish();
      }
    }
    // P5: per (table, row id), upsert versions 1, 2, 3, … in seq order; a
    // delete ends the incarnation.
    const auto changes = database.query(
        "SELECT commit_seq, tbl, row_id, op, row_version FROM sync_changes WHERE partition = ? "
        "ORDER BY commit_seq, idx",
        {partition});
    change_count += static_cast<std::int64_t>(changes.size());
    std::map<std::pair<std::string, std::string>, std::int64_t> version_of_row;
    for (const SqlRow& change : changes) {
      const auto key = std::make_pair(cell(change, 1), cell(change, 2));
      if (integer(change, 3) == 2) {
        version_of_row[key] = 0;
        continue;
      }
      const std::int64_t expected = version_of_row[key] + 1;
      if (!change[4] || integer(change, 4) != expected) {
        fail("P5", "seq " + cell(change, 0) + " table " + quoted(key.first) + " row " +
                       quoted(key.second) + ": row version " +
                       (change[4] ? *change[4] : std::string("null")) + " where " +
                       std::to_string(expected) + " was expected");
        return finish();
      }
      version_of_row[key] = expected;
    }
  }
  return finish();
}

}  // namespace ssp::tools
