// The server storage on SQLite. Only SQL lives here: the startup sequence, the
// memo and the row checks are ServerStorageBase and run_schema_startup.
#include <sqlite3.h>

#include <unordered_map>

#include "../sql/idle_connections.hpp"
#include "core/storage/core_tables_seen.hpp"
#include "core/storage/storage_server_base.hpp"
#include "sqlite_connection.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/sqlite/sqlite_server_storage.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/storage_ddl.hpp"
#include "ssp/storage/storage_errors.hpp"
#include "ssp/storage/stored_scopes.hpp"
#include "ssp/storage/schema_startup.hpp"

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
  // The connection's pooled statement for `sql` (Connection::prepare): the
  // app-row upsert and the sync_changes insert run on every push, and parsing
  // them again each time was a measured share of a push (issue 22).
  ValueStatement(Connection& connection, const std::string& sql)
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
  Statement statement_;  // reset and given back to the pool when this ends
  sqlite3_stmt* stmt_;   // statement_'s
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

// --- Row and commit-log SQL on any connection, shared by the storage-level
// calls and the push session.

StoredRow stored_row_from(const Statement& read, const std::string& row_id,
                          const std::string& table) {
  const auto payload = read.blob("payload");
  return StoredRow{row_id, read.integer("version"), parse_scopes_json(read.text("scopes"), table),
                   Bytes(payload.begin(), payload.end())};
}

std::string row_columns_sql() {
  return quote_identifier(kRowIdColumn) + " AS row_id, " +
         quote_identifier(kServerVersionColumn) + " AS version, " +
         quote_identifier(kScopesColumn) + " AS scopes, " + quote_identifier(kPayloadColumn) +
         " AS payload";
}

// The SQL of the row statements of one table: its read and its upsert.
struct RowSql {
  std::string read;
  std::string upsert;
};

RowSql row_sql(const CompiledTable& table) {
  const std::vector<std::string> columns = table_column_names(table);
  std::string updates;
  for (std::size_t i = 2; i < columns.size(); ++i) {
    updates += (i > 2 ? ", " : "") + quote_identifier(columns[i]) + " = excluded." +
               quote_identifier(columns[i]);
  }
  return {"SELECT " + row_columns_sql() + " FROM " + quote_identifier(table.name()) + where_row(),
          "INSERT INTO " + quote_identifier(table.name()) + " (" + comma_separated(columns) +
              ") VALUES (" + placeholders(columns.size()) + ") ON CONFLICT (" +
              comma_separated({columns[0], columns[1]}) + ") DO UPDATE SET " + updates};
}

std::optional<StoredRow> read_row_on(Connection& connection, const CompiledTable& table,
                                     const RowSql& sql, const std::string& partition,
                                     const std::string& row_id) {
  Statement read = connection.prepare(sql.read);
  read.bind(1, std::string_view(partition)).bind(2, std::string_view(row_id));
  if (!read.step()) return std::nullopt;
  return stored_row_from(read, row_id, table.name());
}

// False when the row statement violated a constraint (nothing written).
bool write_row_on(Connection& connection, const CompiledTable& table, const RowSql& sql,
                  const std::string& partition, const StoredRow& row, const Row& values) {
  {
    ValueStatement upsert(connection, sql.upsert);
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
    if (!upsert.run_unless_constraint()) return false;
  }
  connection.prepare("DELETE FROM sync_row_scopes WHERE partition = ? AND tbl = ? AND row_id = ?")
      .bind(1, std::string_view(partition))
      .bind(2, std::string_view(table.name()))
      .bind(3, std::string_view(row.row_id))
      .run();
  Statement insert = connection.prepare(
      "INSERT OR IGNORE INTO sync_row_scopes (partition, tbl, var, value, row_id) "
      "VALUES (?, ?, ?, ?, ?)");
  for (const auto& [variable, value] : row.scopes) {
    insert.bind(1, std::string_view(partition))
        .bind(2, std::string_view(table.name()))
        .bind(3, std::string_view(variable))
        .bind(4, std::string_view(value))
        .bind(5, std::string_view(row.row_id))
        .run();
    insert.reset();
  }
  return true;
}

std::optional<std::string> read_push_result_on(Connection& connection,
                                               const std::string& partition,
                                               const std::string& client_id,
                                               const std::string& client_commit_id) {
  Statement read = connection.prepare(
      "SELECT result FROM sync_push_results "
      "WHERE partition = ? AND client_id = ? AND client_commit_id = ?");
  read.bind(1, std::string_view(partition))
      .bind(2, std::string_view(client_id))
      .bind(3, std::string_view(client_commit_id));
  if (!read.step()) return std::nullopt;
  return read.text("result");
}

using IdlePushConnections = sql::IdleConnections<Connection>;

class SqlitePushSession final : public PushSession {
 public:
  // Runs on `connection`, taken from `idle` or newly opened (push_connection
  // of the storage), and given back there when the transaction ended cleanly.
  SqlitePushSession(std::shared_ptr<IdlePushConnections> idle,
                    std::unique_ptr<Connection> connection)
      : idle_(std::move(idle)), owned_(std::move(connection)), connection_(*owned_) {
    // Takes the database writer lock now, waiting up to busy_timeout.
    connection_.exec("BEGIN IMMEDIATE");
    open_ = true;
  }
  ~SqlitePushSession() override {
    rollback();
    // Only a connection whose transaction ended cleanly serves the next push.
    if (ended_cleanly_ && sqlite3_get_autocommit(connection_.handle()) != 0) {
      idle_->give_back(std::move(owned_));
    }
  }

  // The writer lock is already held since BEGIN IMMEDIATE.
  void lock_partition(const std::string&) override {
    connection_.exec("SAVEPOINT syncular_push_candidate");
  }
  void rollback_to_candidate() override {
    connection_.exec(
        "ROLLBACK TO SAVEPOINT syncular_push_candidate; RELEASE SAVEPOINT syncular_push_candidate");
  }

  std::optional<std::string> read_push_result(const std::string& partition,
                                              const std::string& client_id,
                                              const std::string& client_commit_id) override {
    return read_push_result_on(connection_, partition, client_id, client_commit_id);
  }
  void insert_push_result(const std::string& partition, const std::string& client_id,
                          const std::string& client_commit_id,
                          const std::string& result_json) override {
    connection_
        .prepare(
            "INSERT OR IGNORE INTO sync_push_results "
            "(partition, client_id, client_commit_id, result) VALUES (?, ?, ?, ?)")
        .bind(1, std::string_view(partition))
        .bind(2, std::string_view(client_id))
        .bind(3, std::string_view(client_commit_id))
        .bind(4, std::string_view(result_json))
        .run();
  }

  std::optional<StoredRow> read_row(const CompiledTable& table, const std::string& partition,
                                    const std::string& row_id) override {
    return read_row_on(connection_, table, sql_of(table), partition, row_id);
  }

  std::vector<StoredRow> scan_rows(const std::string& partition,
                                   const CheckedScan& scan) override {
    const std::string row_id = "t." + quote_identifier(kRowIdColumn);
    std::string sql = "SELECT " + row_columns_sql() + " FROM " +
                      quote_identifier(scan.table->name()) + " t WHERE t." +
                      quote_identifier(kPartitionColumn) + " = ?";
    if (scan.after_row_id) sql += " AND " + row_id + " > ?";
    for (const auto& [variable, values] : scan.scope_filter) {
      sql +=
          " AND EXISTS (SELECT 1 FROM sync_row_scopes s WHERE s.partition = ? AND s.tbl = ? "
          "AND s.row_id = " +
          row_id + " AND s.var = ? AND s.value IN (" + placeholders(values.size()) + "))";
    }
    sql += " ORDER BY " + row_id + " LIMIT ?";
    Statement read = connection_.prepare(sql);
    int next = 1;
    read.bind(next++, std::string_view(partition));
    if (scan.after_row_id) read.bind(next++, std::string_view(*scan.after_row_id));
    for (const auto& [variable, values] : scan.scope_filter) {
      read.bind(next++, std::string_view(partition));
      read.bind(next++, std::string_view(scan.table->name()));
      read.bind(next++, std::string_view(variable));
      for (const std::string& value : values) read.bind(next++, std::string_view(value));
    }
    read.bind(next, scan.limit);
    std::vector<StoredRow> rows;
    while (read.step()) rows.push_back(stored_row_from(read, read.text("row_id"), scan.table->name()));
    return rows;
  }

  void write_row(const CompiledTable& table, const std::string& partition, const StoredRow& row,
                 const Row& values, std::int64_t op_index) override {
    if (!write_row_on(connection_, table, sql_of(table), partition, row, values)) {
      throw StorageConstraintError(op_index);
    }
  }

  void delete_row(const CompiledTable& table, const std::string& partition,
                  const std::string& row_id) override {
    connection_
        .prepare("DELETE FROM " + quote_identifier(table.name()) + where_row())
        .bind(1, std::string_view(partition))
        .bind(2, std::string_view(row_id))
        .run();
    for (const char* sql : {"DELETE FROM sync_row_scopes WHERE partition = ? AND tbl = ? AND row_id = ?",
                            "DELETE FROM sync_blob_refs WHERE partition = ? AND tbl = ? AND row_id = ?"}) {
      connection_.prepare(sql)
          .bind(1, std::string_view(partition))
          .bind(2, std::string_view(table.name()))
          .bind(3, std::string_view(row_id))
          .run();
    }
  }

  std::int64_t next_commit_seq(const std::string& partition) override {
    // Inside the transaction holding the writer lock: no other writer can
    // interleave, and a rollback undoes the increment (dense, D-1).
    Statement next = connection_.prepare(
        "INSERT INTO sync_partitions (partition, max_commit_seq) VALUES (?, 1) "
        "ON CONFLICT (partition) DO UPDATE SET max_commit_seq = max_commit_seq + 1 "
        "RETURNING max_commit_seq");
    next.bind(1, std::string_view(partition));
    if (!next.step()) throw StorageError("SqliteServerStorage: commit counter returned no row");
    const std::int64_t seq = next.integer("max_commit_seq");
    next.run();
    return seq;
  }

  void write_commit(const std::string& partition, std::int64_t commit_seq,
                    const CommitEntry& entry, const std::vector<ChangeScope>& scopes) override {
    connection_
        .prepare(
            "INSERT INTO sync_commits (partition, commit_seq, client_id, client_commit_id, "
            "actor_id, created_at_ms) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(1, std::string_view(partition))
        .bind(2, commit_seq)
        .bind(3, std::string_view(entry.client_id))
        .bind(4, std::string_view(entry.client_commit_id))
        .bind(5, std::string_view(entry.actor_id))
        .bind(6, entry.created_at_ms)
        .run();
    for (std::size_t idx = 0; idx < entry.changes.size(); ++idx) {
      const Change& change = entry.changes[idx];
      ValueStatement insert(connection_,
                            "INSERT INTO sync_changes (partition, commit_seq, idx, tbl, row_id, op, "
                            "row_version, scopes, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
      const bool upsert = change.op == ChangeOp::upsert;
      insert.bind(1, partition);
      insert.bind(2, commit_seq);
      insert.bind(3, static_cast<std::int64_t>(idx));
      insert.bind(4, change.table);
      insert.bind(5, change.row_id);
      insert.bind(6, static_cast<std::int64_t>(change.op));
      // Deletes store NULL in both. Named values, not a conditional of two
      // variant temporaries, which GCC 12 misreports as uninitialized.
      RowValue row_version;
      if (upsert && change.row_version) row_version = *change.row_version;
      RowValue payload;
      if (upsert && change.payload) payload = *change.payload;
      insert.bind(7, row_version);
      insert.bind(8, scopes_json(change.scopes));
      insert.bind(9, payload);
      insert.step();
    }
    Statement scope = connection_.prepare(
        "INSERT OR IGNORE INTO sync_change_scopes (partition, tbl, var, value, commit_seq) "
        "VALUES (?, ?, ?, ?, ?)");
    for (const ChangeScope& entry_scope : scopes) {
      scope.bind(1, std::string_view(partition))
          .bind(2, std::string_view(entry_scope.table))
          .bind(3, std::string_view(entry_scope.variable))
          .bind(4, std::string_view(entry_scope.value))
          .bind(5, commit_seq)
          .run();
      scope.reset();
    }
  }

  void commit() override {
    connection_.exec("COMMIT");
    open_ = false;
    ended_cleanly_ = true;
  }
  void rollback() noexcept override {
    if (!open_) return;
    open_ = false;
    ended_cleanly_ =
        sqlite3_exec(connection_.handle(), "ROLLBACK", nullptr, nullptr, nullptr) == SQLITE_OK;
  }

 private:
  // row_sql of `table`, built once per push: a push of N operations on one
  // table reads and upserts N times, and building those texts (then hashing
  // them for the statement pool) was a measured share of its time (issue
  // 22). The tables outlive the push, so their addresses are the key.
  const RowSql& sql_of(const CompiledTable& table) {
    auto found = row_sql_.find(&table);
    if (found == row_sql_.end()) found = row_sql_.emplace(&table, row_sql(table)).first;
    return found->second;
  }

  std::shared_ptr<IdlePushConnections> idle_;
  std::unique_ptr<Connection> owned_;
  Connection& connection_;  // *owned_, until the destructor gives it back
  bool open_ = false;
  bool ended_cleanly_ = false;
  std::unordered_map<const CompiledTable*, RowSql> row_sql_;
};

class SqliteServerStorage final : public ServerStorageBase {
 public:
  SqliteServerStorage(const std::string& path, ServerStorageOptions options,
                      SqliteServerStorageOptions sqlite_options)
      : ServerStorageBase(std::move(options)),
        path_(path),
        durability_pragmas_(sqlite_durability_pragmas(sqlite_options.durability)),
        writer_(path, false, this->options().lock_wait_ms),
        reader_(path, false, this->options().lock_wait_ms) {
    // WAL: readers see the last committed state while a push holds the
    // writer lock (design notes push.md Q5); persistent in the file. The
    // synchronous level is per connection: every writing one sets it.
    writer_.exec(durability_pragmas_);
  }

 protected:
  std::unique_ptr<SchemaSession> begin_schema_session() override {
    return std::make_unique<SqliteSchemaSession>(writer_);
  }

  void write_row(const CompiledTable& table, const std::string& partition, const StoredRow& row,
                 const Row& values) override {
    Transaction transaction(writer_, Transaction::Kind::write);
    if (!write_row_on(writer_, table, row_sql(table), partition, row, values)) {
      throw StorageError("SqliteServerStorage: application row violates a relational constraint");
    }
    transaction.commit();
  }

  std::optional<StoredRow> read_row(const CompiledTable& table, const std::string& partition,
                                    const std::string& row_id) override {
    return read_row_on(reader_, table, row_sql(table), partition, row_id);
  }

  std::optional<Row> read_projection_row(const CompiledTable& table, const std::string& partition,
                                         const std::string& row_id) override {
    std::vector<std::string> names;
    for (const Column& column : table.columns()) names.push_back(column.name);
    ValueStatement read(reader_, "SELECT " + comma_separated(names) + " FROM " +
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

  std::optional<std::string> read_push_result(const std::string& partition,
                                              const std::string& client_id,
                                              const std::string& client_commit_id) override {
    if (!core_tables_exist()) return std::nullopt;
    // The optimistic lookup every push starts with, on an idle push
    // connection rather than reader_: a commit on another connection makes a
    // WAL reader drop its page cache, so reader_ read the result index again
    // from the file at every push, while the connection that made the last
    // commit still holds those pages (issue 22). Outside a transaction it reads
    // the last committed state, as reader_ would.
    std::unique_ptr<Connection> connection = push_connection();
    std::optional<std::string> result =
        read_push_result_on(*connection, partition, client_id, client_commit_id);
    idle_push_->give_back(std::move(connection));
    return result;
  }

  std::int64_t read_max_commit_seq(const std::string& partition) override {
    if (!core_tables_exist()) return 0;
    Statement read =
        reader_.prepare("SELECT max_commit_seq FROM sync_partitions WHERE partition = ?");
    read.bind(1, std::string_view(partition));
    return read.step() ? read.integer("max_commit_seq") : 0;
  }

  AuthoritativeRead read_authoritative(const CompiledTable& table, const std::string& partition,
                                       const std::vector<std::string>& row_ids) override {
    Transaction snapshot(reader_, Transaction::Kind::read);
    AuthoritativeRead read;
    const RowSql sql = row_sql(table);
    for (const auto& row_id : row_ids) {
      if (auto row = read_row_on(reader_, table, sql, partition, row_id)) read.rows.push_back(*row);
    }
    read.max_commit_seq = read_max_commit_seq(partition);
    snapshot.commit();
    return read;
  }

  std::vector<Commit> read_commits(const std::string& partition, std::int64_t after_seq,
                                   std::int64_t limit) override {
    if (!core_tables_exist()) return {};
    Transaction snapshot(reader_, Transaction::Kind::read);
    std::vector<Commit> commits;
    {
      Statement read = reader_.prepare(
          "SELECT commit_seq, client_id, client_commit_id, actor_id, created_at_ms "
          "FROM sync_commits WHERE partition = ? AND commit_seq > ? ORDER BY commit_seq LIMIT ?");
      read.bind(1, std::string_view(partition)).bind(2, after_seq).bind(3, limit);
      while (read.step()) {
        Commit commit;
        commit.commit_seq = read.integer("commit_seq");
        commit.entry.client_id = read.text("client_id");
        commit.entry.client_commit_id = read.text("client_commit_id");
        commit.entry.actor_id = read.text("actor_id");
        commit.entry.created_at_ms = read.integer("created_at_ms");
        commits.push_back(std::move(commit));
      }
    }
    if (commits.empty()) return commits;
    ValueStatement changes(reader_,
                           "SELECT commit_seq, tbl, row_id, op, row_version, scopes, payload "
                           "FROM sync_changes WHERE partition = ? AND commit_seq >= ? AND "
                           "commit_seq <= ? ORDER BY commit_seq, idx");
    changes.bind(1, partition);
    changes.bind(2, commits.front().commit_seq);
    changes.bind(3, commits.back().commit_seq);
    std::size_t at = 0;
    while (changes.step()) {
      const auto seq = std::get<std::int64_t>(changes.read(0, ColumnType::integer));
      while (at < commits.size() && commits[at].commit_seq < seq) ++at;
      if (at == commits.size() || commits[at].commit_seq != seq) continue;
      Change change;
      change.table = std::get<std::string>(changes.read(1, ColumnType::string));
      change.row_id = std::get<std::string>(changes.read(2, ColumnType::string));
      change.op = std::get<std::int64_t>(changes.read(3, ColumnType::integer)) == 2
                      ? ChangeOp::remove
                      : ChangeOp::upsert;
      const RowValue version = changes.read(4, ColumnType::integer);
      if (const auto* v = std::get_if<std::int64_t>(&version)) change.row_version = *v;
      change.scopes = parse_scopes_json(
          std::get<std::string>(changes.read(5, ColumnType::string)), change.table);
      RowValue payload = changes.read(6, ColumnType::bytes);
      if (auto* bytes = std::get_if<Bytes>(&payload)) change.payload = std::move(*bytes);
      commits[at].entry.changes.push_back(std::move(change));
    }
    snapshot.commit();
    return commits;
  }

  std::unique_ptr<PushSession> open_push_session() override {
    return std::make_unique<SqlitePushSession>(idle_push_, push_connection());
  }

 private:
  // An idle push connection, or a new one at the storage's durability.
  std::unique_ptr<Connection> push_connection() {
    return idle_push_->take_or([&] {
      auto connection = std::make_unique<Connection>(path_, false, options().lock_wait_ms);
      connection->exec(durability_pragmas_);
      // A push runs under a savepoint, whose journal holds every page the push
      // changes. Past 64 KiB SQLite spills it to a temporary file, created and
      // unlinked at every push: with the default temp_store (a file, in
      // Debian's build) a one-operation push crossed it. The journal only
      // serves a rollback inside the transaction, so memory loses nothing a
      // crash could need (issue 22).
      connection->exec("PRAGMA temp_store = MEMORY");
      return connection;
    });
  }

  bool core_tables_exist() {
    return core_tables_.exist([&] {
      return reader_
          .prepare(
              "SELECT 1 AS present FROM sqlite_master WHERE type = 'table' "
              "AND name = 'sync_push_results'")
          .step();
    });
  }

  std::string path_;
  std::string durability_pragmas_;  // sqlite_durability_pragmas of the storage's level
  Connection writer_;
  Connection reader_;
  CoreTablesSeen core_tables_;  // under read_mutex_, as reader_
  std::shared_ptr<IdlePushConnections> idle_push_ =
      std::make_shared<IdlePushConnections>(sql::kMaxIdlePushConnections);
};

}  // namespace

std::unique_ptr<ServerStorage> open_sqlite_server_storage(
    const std::string& path, ServerStorageOptions options,
    SqliteServerStorageOptions sqlite_options) {
  return std::make_unique<SqliteServerStorage>(path, std::move(options), sqlite_options);
}

}  // namespace ssp::storage
