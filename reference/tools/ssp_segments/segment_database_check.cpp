#include "segment_database_check.hpp"

#include <sqlite3.h>

#include <memory>
#include <pqxx/pqxx>

#include "operator_message.hpp"
#include "sqlite_path.hpp"

namespace ssp::tools {
namespace {

// As long as the store's own read-only connection waits for a writer.
constexpr int kSqliteBusyWaitMs = 30'000;

void require_sqlite_segment_tables(const std::string& path) {
  if (const auto problem = sqlite_path_problem(path)) throw NotASegmentDatabase(*problem);
  sqlite3* raw = nullptr;
  const int opened = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
  const std::unique_ptr<sqlite3, int (*)(sqlite3*)> db(raw, sqlite3_close);
  const auto failure = [&](int code) {
    if (code == SQLITE_NOTADB) return NotASegmentDatabase(path + " is not a SQLite database");
    return NotASegmentDatabase("cannot read " + path + ": " +
                               (db ? sqlite3_errmsg(db.get()) : "out of memory"));
  };
  if (opened != SQLITE_OK) throw failure(opened);
  sqlite3_busy_timeout(db.get(), kSqliteBusyWaitMs);
  sqlite3_stmt* raw_statement = nullptr;
  const int prepared = sqlite3_prepare_v2(
      db.get(), "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sync_segments'", -1,
      &raw_statement, nullptr);
  const std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> statement(raw_statement,
                                                                        sqlite3_finalize);
  if (prepared != SQLITE_OK) throw failure(prepared);
  const int stepped = sqlite3_step(statement.get());
  if (stepped == SQLITE_DONE) {
    throw NotASegmentDatabase(path + " holds no segment tables (no sync_segments table)");
  }
  if (stepped != SQLITE_ROW) throw failure(stepped);
}

void require_postgres_segment_tables(const std::string& dsn, const std::string& schema) {
  bool schema_exists = false;
  bool table_exists = false;
  try {
    pqxx::connection connection(dsn);
    pqxx::read_transaction transaction(connection);
    const pqxx::row row = transaction.exec_params1(
        "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1), "
        "to_regclass(format('%I.sync_segments', $1::text)) IS NOT NULL",
        schema);
    schema_exists = row[0].as<bool>();
    table_exists = row[1].as<bool>();
  } catch (const pqxx::broken_connection& error) {
    throw NotASegmentDatabase("cannot connect to PostgreSQL: " + operator_message(error.what()));
  } catch (const pqxx::failure& error) {
    throw NotASegmentDatabase("PostgreSQL: " + operator_message(error.what()));
  }
  if (!schema_exists) {
    throw NotASegmentDatabase("PostgreSQL schema \"" + schema + "\" does not exist");
  }
  if (!table_exists) {
    throw NotASegmentDatabase("PostgreSQL schema \"" + schema +
                              "\" holds no segment tables (no sync_segments table)");
  }
}

}  // namespace

void require_segment_database(const DatabaseTarget& target) {
  if (target.kind == DatabaseTarget::Kind::sqlite) {
    require_sqlite_segment_tables(target.sqlite_path);
  } else {
    require_postgres_segment_tables(target.pg_dsn, target.pg_schema);
  }
}

}  // namespace ssp::tools
