#include "harness/backends/sqlite_database.hpp"

#include <random>
#include <stdexcept>

#include "harness/util/scratch_directory.hpp"

namespace ssp::harness {
namespace {

void check(sqlite3* db, int rc, const std::string& what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    throw std::runtime_error("harness sqlite: " + what + ": " + sqlite3_errmsg(db));
  }
}

std::string render(sqlite3_stmt* stmt, int column) {
  static constexpr char kHex[] = "0123456789abcdef";
  switch (sqlite3_column_type(stmt, column)) {
    case SQLITE_NULL: return "NULL";
    case SQLITE_BLOB: {
      const auto* data = static_cast<const unsigned char*>(sqlite3_column_blob(stmt, column));
      std::string hex = "x'";
      for (int i = 0; i < sqlite3_column_bytes(stmt, column); ++i) {
        hex.push_back(kHex[data[i] >> 4]);
        hex.push_back(kHex[data[i] & 0x0f]);
      }
      return hex + "'";
    }
    default: {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, column));
      return std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, column)));
    }
  }
}

// Every row of `sql`, each column rendered and joined with '|', one per line.
std::string dump_query(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  check(db, sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), "prepare " + sql);
  std::string out;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
      if (i) out += '|';
      out += render(stmt, i);
    }
    out += '\n';
  }
  sqlite3_finalize(stmt);
  check(db, rc, "step " + sql);
  return out;
}

// `text` as a SQL string literal and as a quoted identifier.
std::string quoted_with(const std::string& text, char quote) {
  std::string out(1, quote);
  for (char c : text) {
    if (c == quote) out.push_back(quote);
    out.push_back(c);
  }
  out.push_back(quote);
  return out;
}
std::string sql_literal(const std::string& text) { return quoted_with(text, '\''); }
std::string sql_identifier(const std::string& text) { return quoted_with(text, '"'); }

// The table inject_write_failure counts writes in.
constexpr const char* kWriteBudget = "ssp_injected_write_budget";

}  // namespace

SqliteTestDatabase::SqliteTestDatabase() {
  std::random_device random;
  directory_ = scratch_directory() /
               ("ssp-sqlite-" + std::to_string(random()) + std::to_string(random()));
  std::filesystem::create_directories(directory_);
  location_.backend = Backend::sqlite;
  location_.sqlite_path = (directory_ / "segments.db").string();
  check(nullptr, sqlite3_open(location_.sqlite_path.c_str(), &db_), "open");
  sqlite3_busy_timeout(db_, 30'000);
}

SqliteTestDatabase::~SqliteTestDatabase() {
  if (lock_holder_) sqlite3_close_v2(lock_holder_);
  sqlite3_close_v2(db_);
  std::error_code ignored;
  std::filesystem::remove_all(directory_, ignored);
}

void SqliteTestDatabase::exec(const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string message = error ? error : "unknown error";
    sqlite3_free(error);
    throw std::runtime_error("harness sqlite: " + message + " in: " + sql);
  }
}

std::vector<std::string> SqliteTestDatabase::query_column(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  check(db_, sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr), "prepare " + sql);
  std::vector<std::string> values;
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) values.push_back(render(stmt, 0));
  sqlite3_finalize(stmt);
  check(db_, rc, "step " + sql);
  return values;
}

std::string SqliteTestDatabase::dump_segment_tables() {
  // A scope row is its key: no reader orders scopes, and a store may keep
  // them WITHOUT ROWID. Publication rowids are their order (upstream reads
  // them ORDER BY rowid), so they are part of the state.
  return "== sync_segments\n" +
         dump_query(db_, "SELECT rowid, * FROM sync_segments ORDER BY rowid") +
         "== sync_segment_scopes\n" +
         dump_query(db_, "SELECT * FROM sync_segment_scopes ORDER BY segment_id, scope_digest") +
         "== sync_segment_publications\n" +
         dump_query(db_, "SELECT rowid, * FROM sync_segment_publications ORDER BY rowid");
}

std::vector<std::string> SqliteTestDatabase::column_names(const std::string& table) {
  return query_column("SELECT name FROM pragma_table_info(" + sql_literal(table) +
                      ") ORDER BY cid");
}

void SqliteTestDatabase::drop_column(const std::string& table, const std::string& column) {
  // ALTER TABLE DROP COLUMN refuses key and indexed columns: rebuild instead.
  const std::string rebuilt = table + "__ssp_rebuild";
  std::string definitions;
  std::string kept;
  std::vector<std::string> key;
  bool key_column_dropped = false;  // then the key goes too, as on PostgreSQL
  sqlite3_stmt* stmt = nullptr;
  const std::string info = "SELECT name, type, \"notnull\", pk FROM pragma_table_info(" +
                           sql_literal(table) + ") ORDER BY cid";
  check(db_, sqlite3_prepare_v2(db_, info.c_str(), -1, &stmt, nullptr), "prepare " + info);
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    const std::string name = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    if (name == column) {
      key_column_dropped = sqlite3_column_int(stmt, 3) != 0;
      continue;
    }
    const std::string type = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
    definitions += (definitions.empty() ? "" : ", ") + sql_identifier(name) + " " + type +
                   (sqlite3_column_int(stmt, 2) ? " NOT NULL" : "");
    kept += (kept.empty() ? "" : ", ") + sql_identifier(name);
    if (sqlite3_column_int(stmt, 3)) key.push_back(sql_identifier(name));
  }
  sqlite3_finalize(stmt);
  if (!key.empty() && !key_column_dropped) {
    std::string joined;
    for (const auto& name : key) joined += (joined.empty() ? "" : ", ") + name;
    definitions += ", PRIMARY KEY (" + joined + ")";
  }
  exec("CREATE TABLE " + sql_identifier(rebuilt) + " (" + definitions + "); INSERT INTO " +
       sql_identifier(rebuilt) + " SELECT " + kept + " FROM " + sql_identifier(table) +
       "; DROP TABLE " + sql_identifier(table) + "; ALTER TABLE " + sql_identifier(rebuilt) +
       " RENAME TO " + sql_identifier(table) + ";");
}

std::vector<std::string> SqliteTestDatabase::index_names(const std::string& table) {
  return query_column("SELECT name FROM pragma_index_list(" + sql_literal(table) +
                      ") WHERE origin = 'c' ORDER BY name");
}

std::string SqliteTestDatabase::dump_all_tables() {
  // sqlite_master carries each object's DDL, which ALTER TABLE rewrites.
  std::string out = "== schema\n" +
                    dump_query(db_, "SELECT type, name, tbl_name, sql FROM sqlite_master "
                                    "WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name");
  for (const std::string& table : query_column(
           "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
           "ORDER BY name")) {
    const std::string quoted = sql_identifier(table);
    const auto columns =
        query_column("SELECT count(*) FROM pragma_table_info(" + sql_literal(table) + ")");
    std::string order;
    for (int i = 1; i <= std::stoi(columns.at(0)); ++i) {
      order += (i > 1 ? ", " : "") + std::to_string(i);
    }
    out += "== " + table + '\n' + dump_query(db_, "SELECT * FROM " + quoted + " ORDER BY " + order);
  }
  return out;
}

void SqliteTestDatabase::inject_insert_failure(const std::string& table, int after_rows) {
  const std::string name = "ssp_injected_failure_" + std::to_string(triggers_.size());
  const std::string when = "(SELECT count(*) FROM " + table +
                           " WHERE segment_id = NEW.segment_id) >= " + std::to_string(after_rows);
  const std::string body = " BEGIN SELECT RAISE(ABORT, 'ssp injected failure'); END;";
  exec("CREATE TRIGGER " + name + " BEFORE INSERT ON " + table + " WHEN " + when + body);
  triggers_.push_back(name);
  if (table == "sync_segments") {
    // An existing segment's top level is rewritten by UPDATE, not INSERT.
    exec("CREATE TRIGGER " + name + "_update BEFORE UPDATE ON " + table + body);
    triggers_.push_back(name + "_update");
  }
}

bool SqliteTestDatabase::inject_commit_failure() { return false; }

void SqliteTestDatabase::inject_write_failure(int after_writes) {
  const auto tables = query_column(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
      "ORDER BY name");
  exec("CREATE TABLE " + std::string(kWriteBudget) + " (remaining INTEGER NOT NULL); INSERT INTO " +
       kWriteBudget + " VALUES (" + std::to_string(after_writes) + ")");
  write_failure_ = true;
  // RAISE() would report SQLITE_CONSTRAINT, which a push answers as a
  // rejection; json() of a non-JSON text fails with a plain SQLITE_ERROR.
  const std::string body = " BEGIN UPDATE " + std::string(kWriteBudget) +
                           " SET remaining = remaining - 1; "
                           "SELECT json('ssp injected write failure') WHERE (SELECT remaining FROM " +
                           kWriteBudget + ") < 0; END;";
  for (const auto& table : tables) {
    for (const char* write : {"INSERT", "UPDATE", "DELETE"}) {
      std::string name = "ssp_injected_write_failure_";
      name += std::to_string(triggers_.size());
      exec("CREATE TRIGGER " + name + " BEFORE " + write + " ON " + sql_identifier(table) + body);
      triggers_.push_back(name);
    }
  }
}

void SqliteTestDatabase::clear_injected_failures() {
  for (const auto& name : triggers_) exec("DROP TRIGGER IF EXISTS " + name);
  triggers_.clear();
  if (write_failure_) exec("DROP TABLE IF EXISTS " + std::string(kWriteBudget));
  write_failure_ = false;
}

void SqliteTestDatabase::hold_write_lock() {
  check(nullptr, sqlite3_open(location_.sqlite_path.c_str(), &lock_holder_), "open lock holder");
  check(lock_holder_, sqlite3_exec(lock_holder_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr),
        "BEGIN IMMEDIATE");
}

void SqliteTestDatabase::release_write_lock() {
  if (!lock_holder_) return;
  sqlite3_exec(lock_holder_, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close_v2(lock_holder_);
  lock_holder_ = nullptr;
}

bool SqliteTestDatabase::shows_lock_waits(int /*waiters: SQLite cannot count them*/) {
  // A connection of its own that never waits: BEGIN IMMEDIATE is busy exactly
  // when another connection holds the write lock.
  sqlite3* probe = nullptr;
  check(nullptr, sqlite3_open(location_.sqlite_path.c_str(), &probe), "open lock probe");
  const int code = sqlite3_exec(probe, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
  if (code == SQLITE_OK) sqlite3_exec(probe, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close_v2(probe);
  if (code != SQLITE_OK && code != SQLITE_BUSY) check(nullptr, code, "lock probe");
  return code == SQLITE_BUSY;
}

}  // namespace ssp::harness
