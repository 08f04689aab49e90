#include "harness/backends/inspection_failure.hpp"

#include <map>
#include <regex>

#include "harness/errors/harness_error.hpp"

namespace ssp::harness {
namespace {

// "schema.table" or "main.table" → "table": the harness names tables bare.
std::string unqualified(std::string name) {
  const auto dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

bool harness_owned(const std::string& name) { return name.starts_with("ssp_"); }

// The first capture of the first of `patterns` that matches `message`.
std::string captured(const std::string& message, std::initializer_list<const char*> patterns) {
  for (const char* pattern : patterns) {
    std::smatch match;
    if (std::regex_search(message, match, std::regex(pattern))) return match[1];
  }
  return "";
}

}  // namespace

std::string table_origin(const std::string& table) {
  static const std::map<std::string, std::string> origins = {
      {"sync_segments", "the segment store, 0.21 and 0.22, §5.1"},
      {"sync_segment_scopes", "the 0.22 segment layout, §5.1"},
      {"sync_segment_publications", "the 0.22 segment layout, §5.1"},
      {"sync_schema_meta", "the server storage's schema marker, §2.4"},
      {"sync_commits", "the commit log, §2.1"},
      {"sync_changes", "the commit log, §2.1"},
      {"sync_change_scopes", "the commit log, §2.1"},
      {"sync_partitions", "the partitions, §2.1"},
      {"sync_partition_registry", "the partitions, §2.1"},
      {"sync_push_results", "push idempotency, §6.3"},
      {"sync_row_scopes", "the stored scopes, §3.1"},
  };
  const auto found = origins.find(table);
  if (found != origins.end()) return found->second;
  if (table.starts_with("sync_")) return "the server storage's core tables, §2.4";
  return "a table of the configured schema, §2.4";
}

void raise_inspection_failure(const std::string& message, const std::string& sql) {
  // Columns first: PostgreSQL's missing column ("column "c" of relation "t"
  // does not exist") also holds a missing table's words.
  const std::string column = unqualified(captured(
      message, {R"(no such column: ([A-Za-z0-9_.]+))", R"(has no column named ([A-Za-z0-9_]+))",
                R"(column \"([A-Za-z0-9_]+)\"(?: of relation \"[A-Za-z0-9_.]+\")? does not exist)"}));
  if (!column.empty()) {
    std::string of = unqualified(captured(
        message, {R"(table ([A-Za-z0-9_.]+) has no column)", R"(of relation \"([A-Za-z0-9_.]+)\")"}));
    // The database's text may quote the statement (PostgreSQL's "LINE 1: …").
    if (of.empty()) {
      of = unqualified(
          captured(sql + "\n" + message, {R"((?:FROM|INTO|UPDATE|ON) +([A-Za-z0-9_.]+))"}));
    }
    if (harness_owned(column) || harness_owned(of)) {
      throw HarnessError("its own column " + column + " is missing: " + sql);
    }
    const std::string where = of.empty() ? "" : " in table " + of;
    const std::string origin = of.empty() ? "" : " (" + table_origin(of) + ")";
    throw CandidateLayoutMissing("the candidate's database has no column " + column + where +
                                 origin);
  }
  const std::string table = unqualified(captured(
      message, {R"(no such table: ([A-Za-z0-9_.]+))", R"(relation \"([A-Za-z0-9_.]+)\" does not exist)"}));
  if (!table.empty()) {
    if (harness_owned(table)) throw HarnessError("its own table " + table + " is missing: " + sql);
    throw CandidateLayoutMissing("the candidate's database has no table " + table + " (" +
                                 table_origin(table) + ")");
  }
  if (message.find("syntax error") != std::string::npos) {
    throw HarnessError("its own SQL is wrong: " + message + " in: " + sql);
  }
}

}  // namespace ssp::harness
