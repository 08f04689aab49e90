// The server storage on SQLite. Only SQL lives here: the startup sequence, the
// memo and the row checks are ServerStorageBase and run_schema_startup.
#include <sqlite3.h>

#include "../core/storage_server_base.hpp"
#include "sqlite_connection.hpp"
#include "ssp/errors.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/sqlite_server_storage.hpp"
#include "ssp/storage/storage_ddl.hpp"
#include "ssp/storage/stored_scopes.hpp"

namespace ssp::storage {
namespace {

using sqlite::Connection;
using sqlite::Statement;
using sqlite::Transaction;

// A statement whose parameters and results are row-codec values, bound and
// read by position with the column's type (the general wrapper reads text,
// integers and blobs by name only).
class ValueStatement {
 public:
  ValueStatement(Connection& connection, const std::string& sql) : db_(connection.handle()) {
    if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
        SQLITE_OK) {
      fail("prepare " + sql.substr(0, 120));
    }
  }
  ~ValueStatement() { sqlite3_finalize(stmt_); }
  ValueStatement(const ValueStatement&) = delete;
  ValueStatement& operator=(const ValueStatement&) = delete;

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
  sqlite3_stmt* stmt_ = nullptr;
};

std::string comma_separated(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + quote_identifier(name);
  return out;
}

std::string placeholders(std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += i ? ", ?" : "?";
  return out;
}

// The row key condition shared by every single-row statement.
std::string where_row() {
  return " WHERE " + quote_identifier(kPartitionColumn) + " = ? AND " +
         quote_identifier(kRowIdColumn) + " = ?";
}

class SqliteSchemaSession final : public SchemaSession {
 public:
  // BEGIN IMMEDIATE takes the database write lock: the migration lock.
  explicit SqliteSchemaSession(Connection& connection)
      : connection_(connection), transaction_(connection, Transaction::Kind::write) {}

  SqlDialect dialect() const override { return SqlDialect::sqlite; }
  void execute(const std::string& sql) override { connection_.exec(sql); }

  std::vector<std::string> physical_columns(const std::string& table) override {
    Statement pragma = connection_.prepare("PRAGMA table_info(" + quote_identifier(table) + ")");
    std::vector<std::string> names;
    while (pragma.step()) names.push_back(pragma.text("name"));
    return names;
  }

  std::vector<std::string> free_standing_indexes(const std::string& table) override {
    Statement pragma = connection_.prepare("PRAGMA index_list(" + quote_identifier(table) + ")");
    std::vector<std::string> names;
    while (pragma.step()) {
      if (pragma.text("origin") == "c") names.push_back(pragma.text("name"));
    }
    return names;
  }

  std::optional<StoredMarker> read_marker() override {
    Statement read =
        connection_.prepare("SELECT schema_version, layouts FROM sync_schema_meta WHERE id = 1");
    if (!read.step()) return std::nullopt;
    return StoredMarker{read.integer("schema_version"), read.nullable_text("layouts")};
  }

  void write_marker(std::int64_t version, const std::string& layouts) override {
    connection_
        .prepare(
            "INSERT INTO sync_schema_meta (id, schema_version, layouts) VALUES (1, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET schema_version = excluded.schema_version, "
            "layouts = excluded.layouts")
        .bind(1, version)
        .bind(2, std::string_view(layouts))
        .run();
  }

  void delete_table_references(const std::string& table) override {
    for (const char* sql : {"DELETE FROM sync_row_scopes WHERE tbl = ?",
                            "DELETE FROM sync_blob_refs WHERE tbl = ?"}) {
      connection_.prepare(sql).bind(1, std::string_view(table)).run();
    }
  }

  std::vector<StoredPayload> payload_page(const std::string& table,
                                          const std::optional<RowKey>& after,
                                          std::size_t limit) override {
    const std::string key =
        quote_identifier(kPartitionColumn) + ", " + quote_identifier(kRowIdColumn);
    std::string sql = "SELECT " + key + ", " + quote_identifier(kPayloadColumn) + " FROM " +
                      quote_identifier(table);
    if (after) sql += " WHERE (" + key + ") > (?, ?)";
    sql += " ORDER BY " + key + " LIMIT ?";
    Statement page = connection_.prepare(sql);
    int next = 1;
    if (after) {
      page.bind(next++, std::string_view(after->partition));
      page.bind(next++, std::string_view(after->row_id));
    }
    page.bind(next, static_cast<std::int64_t>(limit));
    std::vector<StoredPayload> rows;
    while (page.step()) {
      const auto payload = page.blob(std::string(kPayloadColumn));
      rows.push_back(
          {{page.text(std::string(kPartitionColumn)), page.text(std::string(kRowIdColumn))},
           Bytes(payload.begin(), payload.end())});
    }
    return rows;
  }

  void rewrite_row(const CompiledTable& table, const RowKey& key, const Row& values,
                   const Bytes& payload) override {
    std::string sql = "UPDATE " + quote_identifier(table.name()) + " SET " +
                      quote_identifier(kPayloadColumn) + " = ?";
    if (table.materialized) {
      for (const Column& column : table.columns())
        sql += ", " + quote_identifier(column.name) + " = ?";
    }
    ValueStatement update(connection_, sql + where_row());
    int next = 1;
    update.bind(next++, payload);
    if (table.materialized) {
      for (const RowValue& value : values) update.bind(next++, value);
    }
    update.bind(next++, key.partition);
    update.bind(next, key.row_id);
    update.step();
  }

  void commit() override { transaction_.commit(); }

 private:
  Connection& connection_;
  Transaction transaction_;
};

class SqliteServerStorage final : public ServerStorageBase {
 public:
  SqliteServerStorage(const std::string& path, ServerStorageOptions options)
      : ServerStorageBase(std::move(options)),
        connection_(path, false, this->options().lock_wait_ms) {}

 protected:
  std::unique_ptr<SchemaSession> begin_schema_session() override {
    return std::make_unique<SqliteSchemaSession>(connection_);
  }

  std::optional<StoredRow> read_row(const CompiledTable& table, const std::string& partition,
                                    const std::string& row_id) override {
    Statement read = connection_.prepare(
        "SELECT " + quote_identifier(kServerVersionColumn) + " AS version, " +
        quote_identifier(kScopesColumn) + " AS scopes, " + quote_identifier(kPayloadColumn) +
        " AS payload FROM " + quote_identifier(table.name()) + where_row());
    read.bind(1, std::string_view(partition)).bind(2, std::string_view(row_id));
    if (!read.step()) return std::nullopt;
    const auto payload = read.blob("payload");
    return StoredRow{row_id, read.integer("version"),
                     parse_scopes_json(read.text("scopes"), table.name()),
                     Bytes(payload.begin(), payload.end())};
  }

  void write_row(const CompiledTable& table, const std::string& partition, const StoredRow& row,
                 const Row& values) override {
    const std::vector<std::string> columns = table_column_names(table);
    std::string updates;
    for (std::size_t i = 2; i < columns.size(); ++i) {
      updates += (i > 2 ? ", " : "") + quote_identifier(columns[i]) + " = excluded." +
                 quote_identifier(columns[i]);
    }
    Transaction transaction(connection_, Transaction::Kind::write);
    {
      ValueStatement upsert(connection_, "INSERT INTO " + quote_identifier(table.name()) + " (" +
                                             comma_separated(columns) + ") VALUES (" +
                                             placeholders(columns.size()) + ") ON CONFLICT (" +
                                             comma_separated({columns[0], columns[1]}) +
                                             ") DO UPDATE SET " + updates);
      int next = 1;
      upsert.bind(next++, partition);
      upsert.bind(next++, row.row_id);
      if (table.materialized) {
        for (const RowValue& value : values) upsert.bind(next++, value);
      }
      upsert.bind(next++, row.server_version);
      upsert.bind(next++, scopes_json(row.scopes));
      upsert.bind(next++, row.payload);
      upsert.bind(next, std::monostate{});
      upsert.step();
    }
    connection_
        .prepare("DELETE FROM sync_row_scopes WHERE partition = ? AND tbl = ? AND row_id = ?")
        .bind(1, std::string_view(partition))
        .bind(2, std::string_view(table.name()))
        .bind(3, std::string_view(row.row_id))
        .run();
    Statement insert = connection_.prepare(
        "INSERT INTO sync_row_scopes (partition, tbl, var, value, row_id) VALUES (?, ?, ?, ?, ?)");
    for (const auto& [variable, value] : row.scopes) {
      insert.bind(1, std::string_view(partition))
          .bind(2, std::string_view(table.name()))
          .bind(3, std::string_view(variable))
          .bind(4, std::string_view(value))
          .bind(5, std::string_view(row.row_id))
          .run();
      insert.reset();
    }
    transaction.commit();
  }

  std::optional<Row> read_projection_row(const CompiledTable& table, const std::string& partition,
                                         const std::string& row_id) override {
    std::vector<std::string> names;
    for (const Column& column : table.columns()) names.push_back(column.name);
    ValueStatement read(connection_, "SELECT " + comma_separated(names) + " FROM " +
                                         quote_identifier(table.name()) + where_row());
    read.bind(1, partition);
    read.bind(2, row_id);
    if (!read.step()) return std::nullopt;
    Row values;
    for (std::size_t i = 0; i < table.columns().size(); ++i) {
      values.push_back(read.read(static_cast<int>(i), table.columns()[i].type));
    }
    return values;
  }

 private:
  Connection connection_;
};

}  // namespace

std::unique_ptr<ServerStorage> open_sqlite_server_storage(const std::string& path,
                                                          ServerStorageOptions options) {
  return std::make_unique<SqliteServerStorage>(path, std::move(options));
}

}  // namespace ssp::storage
