// What the SQLite server storage's parts share: statements of row-codec
// values, and the row and push-result SQL on any connection, used by the
// storage's own calls, its schema session and its push session.
#pragma once

#include <sqlite3.h>

#include <optional>
#include <string>
#include <vector>

#include "sqlite_connection.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/storage/row.hpp"
#include "ssp/storage/schema.hpp"
#include "ssp/storage/stored_row.hpp"

namespace ssp::storage {

// A statement whose parameters and results are row-codec values, bound and
// read by position with the column's type (the general wrapper reads text,
// integers and blobs by name only).
class ValueStatement {
 public:
  // The connection's pooled statement for `sql` (Connection::prepare): the
  // app-row upsert and the sync_changes insert run on every push, and parsing
  // them again each time was a measured share of a push (issue 22).
  ValueStatement(sqlite::Connection& connection, const std::string& sql)
      : db_(connection.handle()), statement_(connection.prepare(sql)), stmt_(statement_.handle()) {}

  // Binds `value` at 1-based `index`: booleans as 0/1, json text as TEXT.
  void bind(int index, const RowValue& value) {
    int rc = SQLITE_OK;
    if (std::holds_alternative<std::monostate>(value)) {
      rc = sqlite3_bind_null(stmt_, index);
    } else if (const auto* text = std::get_if<std::string>(&value)) {
      rc = sqlite3_bind_text(stmt_, index, text->data(), static_cast<int>(text->size()),
                             SQLITE_TRANSIENT);
    } else if (const auto* integer = std::get_if<std::int64_t>(&value)) {
      rc = sqlite3_bind_int64(stmt_, index, *integer);
    } else if (const auto* number = std::get_if<double>(&value)) {
      rc = sqlite3_bind_double(stmt_, index, *number);
    } else if (const auto* flag = std::get_if<bool>(&value)) {
      rc = sqlite3_bind_int(stmt_, index, *flag ? 1 : 0);
    } else if (const auto* bytes = std::get_if<Bytes>(&value)) {
      static const std::uint8_t kEmpty = 0;  // a null pointer would bind NULL
      rc = sqlite3_bind_blob64(stmt_, index, bytes->empty() ? &kEmpty : bytes->data(),
                               bytes->size(), SQLITE_TRANSIENT);
    }
    if (rc != SQLITE_OK) fail("bind");
  }

  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) fail("step");
    return false;
  }

  // Runs a statement without results. False when it violated a constraint
  // (SQLITE_CONSTRAINT_*): SQLite then undid the statement alone and the
  // transaction is still open.
  bool run_unless_constraint() {
    const int rc = sqlite3_step(stmt_);
    if ((rc & 0xff) == SQLITE_CONSTRAINT) return false;
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) fail("step");
    return true;
  }

  // Result column `index` (0-based) as a value of `type`.
  RowValue read(int index, ColumnType type) const {
    if (sqlite3_column_type(stmt_, index) == SQLITE_NULL) return std::monostate{};
    switch (type) {
      case ColumnType::string:
      case ColumnType::json:
      case ColumnType::blob_ref: {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, index));
        return std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, index)));
      }
      case ColumnType::integer:
        return static_cast<std::int64_t>(sqlite3_column_int64(stmt_, index));
      case ColumnType::floating:
        return sqlite3_column_double(stmt_, index);
      case ColumnType::boolean:
        return sqlite3_column_int64(stmt_, index) != 0;
      case ColumnType::bytes:
      case ColumnType::crdt: {
        const auto* data = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt_, index));
        return Bytes(data, data + sqlite3_column_bytes(stmt_, index));
      }
    }
    return std::monostate{};
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw StorageError("SqliteServerStorage: " + what + ": " + sqlite3_errmsg(db_));
  }

  sqlite3* db_;
  sqlite::Statement statement_;  // reset and given back to the pool when this ends
  sqlite3_stmt* stmt_;   // statement_'s
};

// Quoted names joined by ", ".
std::string comma_separated(const std::vector<std::string>& names);
// `count` "?" placeholders joined by ", ".
std::string placeholders(std::size_t count);
// The row key condition shared by every single-row statement.
std::string where_row();

// The stored row the current result of a row read holds.
StoredRow stored_row_from(const sqlite::Statement& read, const std::string& row_id,
                          const std::string& table);
// The read columns of a row: row_id, version, scopes, payload.
std::string row_columns_sql();

// The SQL of the row statements of one table: its read and its upsert.
struct RowSql {
  std::string read;
  std::string upsert;
};

RowSql row_sql(const CompiledTable& table);
std::optional<StoredRow> read_row_on(sqlite::Connection& connection, const CompiledTable& table,
                                     const RowSql& sql, const std::string& partition,
                                     const std::string& row_id);
// False when the row statement violated a constraint (nothing written).
bool write_row_on(sqlite::Connection& connection, const CompiledTable& table, const RowSql& sql,
                  const std::string& partition, const StoredRow& row, const Row& values);
std::optional<std::string> read_push_result_on(sqlite::Connection& connection,
                                               const std::string& partition,
                                               const std::string& client_id,
                                               const std::string& client_commit_id);

}  // namespace ssp::storage
