// The server storage on PostgreSQL. Only SQL lives here: the startup sequence,
// the memo and the row checks are ServerStorageBase and run_schema_startup.
// Every parameter travels as text; PostgreSQL types it from its column.
#include <charconv>
#include <cmath>
#include <optional>
#include <pqxx/pqxx>

#include "../core/storage_server_base.hpp"
#include "../sql/idle_connections.hpp"
#include "pqxx_guard.hpp"
#include "prepared_statements.hpp"
#include "ssp/errors.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/postgres_server_storage.hpp"
#include "ssp/storage/storage_ddl.hpp"
#include "ssp/storage/storage_errors.hpp"
#include "ssp/storage/stored_scopes.hpp"
#include "storage_postgres_values.hpp"

namespace ssp::storage {
namespace {

constexpr const char* kStorageName = "PostgresServerStorage";

// First key of the migration advisory lock ('SSPM'); the second is
// hashtext(schema name). A hash collision only serializes two schemas.
constexpr int kMigrationLockClass = 0x5353504d;

template <typename Work>
auto guarded(Work&& work) -> decltype(work()) {
  return postgres::guard_pqxx(kStorageName, std::forward<Work>(work));
}

// Text parameters in order; nothing is SQL NULL.
class Params {
 public:
  Params& add(std::optional<std::string> value) {
    values_.push_back(std::move(value));
    return *this;
  }
  std::string next_placeholder() const { return "$" + std::to_string(values_.size() + 1); }
  // Runs `sql` in `txn`: as a statement `prepared` holds when given (a push
  // connection), else parsed for this one execution.
  pqxx::result exec(pqxx::transaction_base& txn, const std::string& sql,
                    postgres::PreparedStatements* prepared = nullptr) const {
    std::vector<const char*> pointers;
    for (const auto& value : values_) pointers.push_back(value ? value->c_str() : nullptr);
    if (prepared != nullptr) return prepared->exec(txn, sql, pointers);
    return txn.exec_params(sql, pqxx::prepare::make_dynamic_params(pointers));
  }

 private:
  std::vector<std::optional<std::string>> values_;
};

std::string where_row(Params& params, const std::string& partition, const std::string& row_id) {
  std::string sql =
      " WHERE " + quote_identifier(kPartitionColumn) + " = " + params.next_placeholder();
  params.add(partition);
  sql += " AND " + quote_identifier(kRowIdColumn) + " = " + params.next_placeholder();
  params.add(row_id);
  return sql;
}

Bytes bytes_of(const pqxx::field& field) {
  const pqxx::binarystring blob(field);
  return Bytes(blob.begin(), blob.end());
}

class PostgresSchemaSession final : public SchemaSession {
 public:
  PostgresSchemaSession(pqxx::connection& connection, std::string schema)
      : txn_(connection), schema_(std::move(schema)) {
    txn_.exec_params("SELECT pg_advisory_xact_lock($1, hashtext($2))", kMigrationLockClass,
                     schema_);
    const std::string quoted = txn_.quote_name(schema_);
    // Checked first: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database
    // even when the schema exists.
    if (txn_.exec_params("SELECT 1 FROM pg_namespace WHERE nspname = $1", schema_).empty()) {
      txn_.exec("CREATE SCHEMA " + quoted);
    }
    txn_.exec("SET LOCAL search_path TO " + quoted);
  }

  SqlDialect dialect() const override { return SqlDialect::postgres; }
  void execute(const std::string& sql) override {
    guarded([&] { txn_.exec(sql); });
  }

  std::vector<std::string> physical_columns(const std::string& table) override {
    return guarded([&] {
      std::vector<std::string> names;
      for (const auto& row :
           txn_.exec_params("SELECT column_name FROM information_schema.columns "
                            "WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position",
                            schema_, table)) {
        names.emplace_back(row[0].c_str());
      }
      return names;
    });
  }

  std::vector<std::string> free_standing_indexes(const std::string& table) override {
    return guarded([&] {
      std::vector<std::string> names;
      for (const auto& row : txn_.exec_params(
               "SELECT i.relname FROM pg_index x "
               "JOIN pg_class i ON i.oid = x.indexrelid "
               "JOIN pg_class t ON t.oid = x.indrelid "
               "JOIN pg_namespace n ON n.oid = t.relnamespace "
               "WHERE n.nspname = $1 AND t.relname = $2 AND NOT x.indisprimary "
               "AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid) "
               "ORDER BY i.relname",
               schema_, table)) {
        names.emplace_back(row[0].c_str());
      }
      return names;
    });
  }

  std::optional<StoredMarker> read_marker() override {
    return guarded([&]() -> std::optional<StoredMarker> {
      // The version is read as text and parsed: no driver-side number coercion (B-12).
      const pqxx::result rows = txn_.exec(
          "SELECT schema_version::text AS version, layouts FROM sync_schema_meta WHERE id = 1");
      if (rows.empty()) return std::nullopt;
      StoredMarker marker;
      marker.version = std::stoll(rows[0]["version"].c_str());
      if (!rows[0]["layouts"].is_null()) marker.layouts = rows[0]["layouts"].c_str();
      return marker;
    });
  }

  void write_marker(std::int64_t version, const std::string& layouts) override {
    return guarded([&] {
      txn_.exec_params(
          "INSERT INTO sync_schema_meta (id, schema_version, layouts) VALUES (1, $1, $2) "
          "ON CONFLICT (id) DO UPDATE SET schema_version = excluded.schema_version, "
          "layouts = excluded.layouts",
          version, layouts);
    });
  }

  void delete_table_references(const std::string& table) override {
    return guarded([&] {
      txn_.exec_params("DELETE FROM sync_row_scopes WHERE tbl = $1", table);
      txn_.exec_params("DELETE FROM sync_blob_refs WHERE tbl = $1", table);
    });
  }

  std::vector<StoredPayload> payload_page(const std::string& table,
                                          const std::optional<RowKey>& after,
                                          std::size_t limit) override {
    return guarded([&] {
      // COLLATE "C": byte order, the order SQLite walks in.
      const std::string key = quote_identifier(kPartitionColumn) + " COLLATE \"C\", " +
                              quote_identifier(kRowIdColumn) + " COLLATE \"C\"";
      std::string sql = "SELECT " + quote_identifier(kPartitionColumn) + ", " +
                        quote_identifier(kRowIdColumn) + ", " + quote_identifier(kPayloadColumn) +
                        " FROM " + quote_identifier(table);
      Params params;
      if (after) {
        sql += " WHERE (" + key + ") > ($1, $2)";
        params.add(after->partition).add(after->row_id);
      }
      sql += " ORDER BY " + key + " LIMIT " + std::to_string(limit);
      std::vector<StoredPayload> rows;
      for (const auto& row : params.exec(txn_, sql)) {
        rows.push_back({{row[0].c_str(), row[1].c_str()}, bytes_of(row[2])});
      }
      return rows;
    });
  }

  void rewrite_row(const CompiledTable& table, const RowKey& key, const Row& values,
                   const Bytes& payload) override {
    return guarded([&] {
      Params params;
      std::string sql = "UPDATE " + quote_identifier(table.name()) + " SET " +
                        quote_identifier(kPayloadColumn) + " = " + params.next_placeholder();
      params.add(bytea_text(payload));
      if (table.materialized) {
        for (std::size_t i = 0; i < values.size(); ++i) {
          sql +=
              ", " + quote_identifier(table.columns()[i].name) + " = " + params.next_placeholder();
          params.add(projection_text(values[i], table.columns()[i].type));
        }
      }
      sql += where_row(params, key.partition, key.row_id);
      params.exec(txn_, sql);
    });
  }

  void commit() override {
    guarded([&] { txn_.commit(); });
  }

 private:
  pqxx::work txn_;
  std::string schema_;
};

// A connection for this storage: the configured schema first on the search
// path, lock waits bounded by lock_wait_ms (then StorageError).
std::unique_ptr<pqxx::connection> open_connection(const std::string& dsn,
                                                  const std::string& schema,
                                                  std::int64_t lock_wait_ms) {
  auto connection = std::make_unique<pqxx::connection>(dsn);
  pqxx::nontransaction settings(*connection);
  settings.exec("SET search_path TO " + connection->quote_name(schema));
  settings.exec("SET lock_timeout = " + std::to_string(lock_wait_ms));
  return connection;
}

// --- Row and commit-log SQL on any transaction, shared by the storage-level
// calls and the push session.

std::string row_columns_sql(const std::string& alias = "") {
  return alias + quote_identifier(kRowIdColumn) + ", " + alias +
         quote_identifier(kServerVersionColumn) + ", " + alias + quote_identifier(kScopesColumn) +
         "::text, " + alias + quote_identifier(kPayloadColumn);
}

StoredRow stored_row_from(const pqxx::row& row, const std::string& table) {
  return StoredRow{row[0].c_str(), row[1].as<std::int64_t>(), parse_scopes_json(row[2].c_str(), table),
                   bytes_of(row[3])};
}

// Each of these runs its statements through `prepared` when given (params.exec).
std::optional<StoredRow> read_row_on(pqxx::transaction_base& txn, const CompiledTable& table,
                                     const std::string& partition, const std::string& row_id,
                                     postgres::PreparedStatements* prepared = nullptr) {
  Params params;
  const std::string sql = "SELECT " + row_columns_sql() + " FROM " +
                          quote_identifier(table.name()) + where_row(params, partition, row_id);
  const pqxx::result rows = params.exec(txn, sql, prepared);
  if (rows.empty()) return std::nullopt;
  return stored_row_from(rows[0], table.name());
}

// The app-row statement alone.
void upsert_app_row_on(pqxx::transaction_base& txn, const CompiledTable& table,
                       const std::string& partition, const StoredRow& row, const Row& values,
                       postgres::PreparedStatements* prepared = nullptr) {
  const std::vector<std::string> columns = table_column_names(table);
  Params params;
  params.add(partition).add(row.row_id);
  if (table.materialized) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      params.add(projection_text(values[i], table.columns()[i].type));
    }
  }
  params.add(std::to_string(row.server_version)).add(scopes_json(row.scopes));
  params.add(bytea_text(row.payload)).add(std::nullopt);
  std::string names;
  std::string placeholders;
  std::string updates;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    names += (i ? ", " : "") + quote_identifier(columns[i]);
    placeholders += (i ? ", $" : "$") + std::to_string(i + 1);
    if (i >= 2) {
      updates += (i > 2 ? ", " : "") + quote_identifier(columns[i]) + " = excluded." +
                 quote_identifier(columns[i]);
    }
  }
  params.exec(txn,
              "INSERT INTO " + quote_identifier(table.name()) + " (" + names + ") VALUES (" +
                  placeholders + ") ON CONFLICT (" + quote_identifier(kPartitionColumn) + ", " +
                  quote_identifier(kRowIdColumn) + ") DO UPDATE SET " + updates,
              prepared);
}

void replace_row_scopes_on(pqxx::transaction_base& txn, const CompiledTable& table,
                           const std::string& partition, const StoredRow& row,
                           postgres::PreparedStatements* prepared = nullptr) {
  Params()
      .add(partition)
      .add(table.name())
      .add(row.row_id)
      .exec(txn, "DELETE FROM sync_row_scopes WHERE partition = $1 AND tbl = $2 AND row_id = $3",
            prepared);
  for (const auto& [variable, value] : row.scopes) {
    Params()
        .add(partition)
        .add(table.name())
        .add(variable)
        .add(value)
        .add(row.row_id)
        .exec(txn,
              "INSERT INTO sync_row_scopes (partition, tbl, var, value, row_id) "
              "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
              prepared);
  }
}

std::optional<std::string> read_push_result_on(pqxx::transaction_base& txn,
                                               const std::string& partition,
                                               const std::string& client_id,
                                               const std::string& client_commit_id,
                                               postgres::PreparedStatements* prepared = nullptr) {
  const pqxx::result rows =
      Params()
          .add(partition)
          .add(client_id)
          .add(client_commit_id)
          .exec(txn,
                "SELECT result::text FROM sync_push_results "
                "WHERE partition = $1 AND client_id = $2 AND client_commit_id = $3",
                prepared);
  if (rows.empty()) return std::nullopt;
  return std::string(rows[0][0].c_str());
}

bool is_constraint_violation(const pqxx::sql_error& error) {
  return error.sqlstate().size() == 5 && error.sqlstate().compare(0, 2, "23") == 0;
}

// A pooled push connection and the statements it has prepared: they serve
// every later push on it.
struct PushConnection {
  explicit PushConnection(std::unique_ptr<pqxx::connection> opened)
      : connection(std::move(opened)), statements(*connection) {}
  std::unique_ptr<pqxx::connection> connection;
  postgres::PreparedStatements statements;
};

// One push transaction: a connection of its own, BEGIN ISOLATION LEVEL READ
// COMMITTED (design notes push.md Q1, R11), and statements sent as they come,
// each prepared once per pooled connection. It never touches the storage's
// other connections, so while it holds the partition lock it never waits for
// a second connection (push.md §2.2).
using IdlePushConnections = sql::IdleConnections<PushConnection>;

class PostgresPushSession final : public PushSession {
 public:
  PostgresPushSession(std::shared_ptr<IdlePushConnections> idle, const std::string& dsn,
                      const std::string& schema, std::int64_t lock_wait_ms)
      : idle_(std::move(idle)),
        connection_(idle_->take_or([&] {
          return std::make_unique<PushConnection>(open_connection(dsn, schema, lock_wait_ms));
        })),
        statements_(&connection_->statements),
        txn_(std::in_place, *connection_->connection) {
    txn_->exec("BEGIN ISOLATION LEVEL READ COMMITTED");
    open_ = true;
  }
  ~PostgresPushSession() override {
    rollback();
    // Only a connection whose transaction ended cleanly serves the next push;
    // libpqxx wants its transaction object gone first.
    txn_.reset();
    if (ended_cleanly_ && connection_->connection->is_open()) {
      idle_->give_back(std::move(connection_));
    }
  }

  // The lock is the partition's sync_partitions row (push.md Q2): the row
  // append_commit's counter updates, so every push and every append contend
  // on one row. The savepoint comes after the lock: rolling back to it keeps
  // the lock.
  void lock_partition(const std::string& partition) override {
    guarded([&] {
      Params().add(partition).exec(*txn_,
                                   "INSERT INTO sync_partitions (partition, max_commit_seq) "
                                   "VALUES ($1, 0) ON CONFLICT (partition) DO NOTHING",
                                   statements_);
      Params().add(partition).exec(
          *txn_, "SELECT max_commit_seq FROM sync_partitions WHERE partition = $1 FOR UPDATE",
          statements_);
      txn_->exec("SAVEPOINT syncular_push_candidate");
      return 0;
    });
  }
  void rollback_to_candidate() override {
    guarded([&] {
      txn_->exec("ROLLBACK TO SAVEPOINT syncular_push_candidate");
      txn_->exec("RELEASE SAVEPOINT syncular_push_candidate");
      return 0;
    });
  }

  std::optional<std::string> read_push_result(const std::string& partition,
                                              const std::string& client_id,
                                              const std::string& client_commit_id) override {
    return guarded([&] {
      return read_push_result_on(*txn_, partition, client_id, client_commit_id, statements_);
    });
  }
  void insert_push_result(const std::string& partition, const std::string& client_id,
                          const std::string& client_commit_id,
                          const std::string& result_json) override {
    guarded([&] {
      Params()
          .add(partition)
          .add(client_id)
          .add(client_commit_id)
          .add(result_json)
          .exec(*txn_,
                "INSERT INTO sync_push_results (partition, client_id, client_commit_id, result) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                statements_);
      return 0;
    });
  }

  std::optional<StoredRow> read_row(const CompiledTable& table, const std::string& partition,
                                    const std::string& row_id) override {
    return guarded([&] { return read_row_on(*txn_, table, partition, row_id, statements_); });
  }

  std::vector<StoredRow> scan_rows(const std::string& partition,
                                   const CheckedScan& scan) override {
    return guarded([&] {
      const std::string row_id = "t." + quote_identifier(kRowIdColumn);
      Params params;
      std::string sql = "SELECT " + row_columns_sql("t.") + " FROM " +
                        quote_identifier(scan.table->name()) + " t WHERE t." +
                        quote_identifier(kPartitionColumn) + " = " + params.next_placeholder();
      params.add(partition);
      if (scan.after_row_id) {
        sql += " AND " + row_id + " COLLATE \"C\" > " + params.next_placeholder();
        params.add(*scan.after_row_id);
      }
      for (const auto& [variable, values] : scan.scope_filter) {
        sql += " AND EXISTS (SELECT 1 FROM sync_row_scopes s WHERE s.partition = " +
               params.next_placeholder();
        params.add(partition);
        sql += " AND s.tbl = " + params.next_placeholder();
        params.add(scan.table->name());
        sql += " AND s.row_id = " + row_id + " AND s.var = " + params.next_placeholder();
        params.add(variable);
        sql += " AND s.value IN (";
        for (std::size_t i = 0; i < values.size(); ++i) {
          sql += (i ? ", " : "") + params.next_placeholder();
          params.add(values[i]);
        }
        sql += "))";
      }
      // COLLATE "C": byte order, the order SQLite scans in.
      sql += " ORDER BY " + row_id + " COLLATE \"C\" LIMIT " + std::to_string(scan.limit);
      std::vector<StoredRow> rows;
      for (const auto& row : params.exec(*txn_, sql, statements_)) {
        rows.push_back(stored_row_from(row, scan.table->name()));
      }
      return rows;
    });
  }

  // The app-row statement runs under a savepoint of its own: a constraint
  // violation (SQLSTATE class 23) aborts only that statement, so the
  // transaction stays usable whether or not the partition lock was taken
  // (docs/decisions.md, constraint isolation).
  void write_row(const CompiledTable& table, const std::string& partition, const StoredRow& row,
                 const Row& values, std::int64_t op_index) override {
    guarded([&] {
      txn_->exec("SAVEPOINT syncular_row_write");
      try {
        upsert_app_row_on(*txn_, table, partition, row, values, statements_);
      } catch (const pqxx::sql_error& error) {
        if (!is_constraint_violation(error)) throw;
        txn_->exec("ROLLBACK TO SAVEPOINT syncular_row_write");
        txn_->exec("RELEASE SAVEPOINT syncular_row_write");
        throw StorageConstraintError(op_index);
      }
      txn_->exec("RELEASE SAVEPOINT syncular_row_write");
      replace_row_scopes_on(*txn_, table, partition, row, statements_);
      return 0;
    });
  }

  void delete_row(const CompiledTable& table, const std::string& partition,
                  const std::string& row_id) override {
    guarded([&] {
      Params params;
      params.exec(
          *txn_,
          "DELETE FROM " + quote_identifier(table.name()) + where_row(params, partition, row_id),
          statements_);
      for (const char* sql :
           {"DELETE FROM sync_row_scopes WHERE partition = $1 AND tbl = $2 AND row_id = $3",
            "DELETE FROM sync_blob_refs WHERE partition = $1 AND tbl = $2 AND row_id = $3"}) {
        Params().add(partition).add(table.name()).add(row_id).exec(*txn_, sql, statements_);
      }
      return 0;
    });
  }

  // One atomic statement: the row lock it takes serializes same-partition
  // appends to commit, and a rollback undoes the increment (no gap, D-1).
  std::int64_t next_commit_seq(const std::string& partition) override {
    return guarded([&] {
      const pqxx::result rows = Params().add(partition).exec(
          *txn_,
          "INSERT INTO sync_partitions (partition, max_commit_seq) VALUES ($1, 1) "
          "ON CONFLICT (partition) DO UPDATE SET max_commit_seq = sync_partitions.max_commit_seq + "
          "1 "
          "RETURNING max_commit_seq",
          statements_);
      return rows[0][0].as<std::int64_t>();
    });
  }

  void write_commit(const std::string& partition, std::int64_t commit_seq,
                    const CommitEntry& entry, const std::vector<ChangeScope>& scopes) override {
    guarded([&] {
      Params()
          .add(partition)
          .add(std::to_string(commit_seq))
          .add(entry.client_id)
          .add(entry.client_commit_id)
          .add(entry.actor_id)
          .add(std::to_string(entry.created_at_ms))
          .exec(*txn_,
                "INSERT INTO sync_commits (partition, commit_seq, client_id, client_commit_id, "
                "actor_id, created_at_ms) VALUES ($1, $2, $3, $4, $5, $6)",
                statements_);
      for (std::size_t idx = 0; idx < entry.changes.size(); ++idx) {
        const Change& change = entry.changes[idx];
        const bool upsert = change.op == ChangeOp::upsert;
        Params params;
        params.add(partition)
            .add(std::to_string(commit_seq))
            .add(std::to_string(idx))
            .add(change.table)
            .add(change.row_id)
            .add(std::to_string(static_cast<int>(change.op)))
            .add(upsert && change.row_version ? std::optional(std::to_string(*change.row_version))
                                              : std::nullopt)
            .add(scopes_json(change.scopes))
            .add(upsert && change.payload ? std::optional(bytea_text(*change.payload))
                                          : std::nullopt);
        params.exec(*txn_,
                    "INSERT INTO sync_changes (partition, commit_seq, idx, tbl, row_id, op, "
                    "row_version, scopes, payload) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    statements_);
      }
      for (const ChangeScope& scope : scopes) {
        Params()
            .add(partition)
            .add(scope.table)
            .add(scope.variable)
            .add(scope.value)
            .add(std::to_string(commit_seq))
            .exec(*txn_,
                  "INSERT INTO sync_change_scopes (partition, tbl, var, value, commit_seq) "
                  "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                  statements_);
      }
      return 0;
    });
  }

  void commit() override {
    open_ = false;
    guarded([&] {
      txn_->exec("COMMIT");
      return 0;
    });
    ended_cleanly_ = true;
  }
  void rollback() noexcept override {
    if (!open_) return;
    open_ = false;
    try {
      txn_->exec("ROLLBACK");
      ended_cleanly_ = true;
    } catch (...) {
      // The connection closes with the session; the server rolls back then.
    }
  }

 private:
  std::shared_ptr<IdlePushConnections> idle_;
  std::unique_ptr<PushConnection> connection_;
  postgres::PreparedStatements* statements_;  // connection_'s
  std::optional<pqxx::nontransaction> txn_;  // on *connection_, reset before it is given back
  bool open_ = false;
  bool ended_cleanly_ = false;
};

class PostgresServerStorage final : public ServerStorageBase {
 public:
  PostgresServerStorage(const std::string& dsn, std::string schema, ServerStorageOptions options)
      : ServerStorageBase(std::move(options)), dsn_(dsn), schema_(std::move(schema)) {
    guarded([&] {
      writer_ = open_connection(dsn_, schema_, this->options().lock_wait_ms);
      reader_ = open_connection(dsn_, schema_, this->options().lock_wait_ms);
      return 0;
    });
  }

 protected:
  std::unique_ptr<SchemaSession> begin_schema_session() override {
    return guarded([&] { return std::make_unique<PostgresSchemaSession>(*writer_, schema_); });
  }

  void write_row(const CompiledTable& table, const std::string& partition, const StoredRow& row,
                 const Row& values) override {
    guarded([&] {
      pqxx::work txn(*writer_);
      upsert_app_row_on(txn, table, partition, row, values);
      replace_row_scopes_on(txn, table, partition, row);
      txn.commit();
      return 0;
    });
  }

  std::optional<StoredRow> read_row(const CompiledTable& table, const std::string& partition,
                                    const std::string& row_id) override {
    return guarded([&] {
      pqxx::work txn(*reader_);
      return read_row_on(txn, table, partition, row_id);
    });
  }

  std::optional<Row> read_projection_row(const CompiledTable& table, const std::string& partition,
                                         const std::string& row_id) override {
    return guarded([&]() -> std::optional<Row> {
      pqxx::work txn(*reader_);
      std::string names;
      for (const Column& column : table.columns()) {
        names += (names.empty() ? "" : ", ") + quote_identifier(column.name) + "::text";
      }
      Params params;
      const pqxx::result rows =
          params.exec(txn, "SELECT " + names + " FROM " + quote_identifier(table.name()) +
                               where_row(params, partition, row_id));
      if (rows.empty()) return std::nullopt;
      Row values;
      for (std::size_t i = 0; i < table.columns().size(); ++i) {
        const pqxx::field field = rows[0][static_cast<pqxx::row::size_type>(i)];
        values.push_back(field.is_null()
                             ? RowValue{std::monostate{}}
                             : projection_value(field.c_str(), table.columns()[i].type));
      }
      return values;
    });
  }

  std::optional<std::string> read_push_result(const std::string& partition,
                                              const std::string& client_id,
                                              const std::string& client_commit_id) override {
    return guarded([&]() -> std::optional<std::string> {
      pqxx::work txn(*reader_);
      if (!has_table(txn, "sync_push_results")) return std::nullopt;
      return read_push_result_on(txn, partition, client_id, client_commit_id);
    });
  }

  std::int64_t read_max_commit_seq(const std::string& partition) override {
    return guarded([&] {
      pqxx::work txn(*reader_);
      return max_commit_seq_on(txn, partition);
    });
  }

  AuthoritativeRead read_authoritative(const CompiledTable& table, const std::string& partition,
                                       const std::vector<std::string>& row_ids) override {
    return guarded([&] {
      pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> txn(*reader_);
      AuthoritativeRead read;
      for (const auto& row_id : row_ids) {
        if (auto row = read_row_on(txn, table, partition, row_id)) read.rows.push_back(*row);
      }
      read.max_commit_seq = max_commit_seq_on(txn, partition);
      txn.commit();
      return read;
    });
  }

  std::vector<Commit> read_commits(const std::string& partition, std::int64_t after_seq,
                                   std::int64_t limit) override {
    return guarded([&] {
      // One snapshot for both statements.
      pqxx::transaction<pqxx::repeatable_read, pqxx::read_only>
          txn(*reader_);
      std::vector<Commit> commits;
      if (!has_table(txn, "sync_commits")) return commits;
      for (const auto& row : txn.exec_params(
               "SELECT commit_seq, client_id, client_commit_id, actor_id, created_at_ms "
               "FROM sync_commits WHERE partition = $1 AND commit_seq > $2 "
               "ORDER BY commit_seq LIMIT $3",
               partition, after_seq, limit)) {
        Commit commit;
        commit.commit_seq = row[0].as<std::int64_t>();
        commit.entry.client_id = row[1].c_str();
        commit.entry.client_commit_id = row[2].c_str();
        commit.entry.actor_id = row[3].c_str();
        commit.entry.created_at_ms = row[4].as<std::int64_t>();
        commits.push_back(std::move(commit));
      }
      if (commits.empty()) return commits;
      std::size_t at = 0;
      for (const auto& row : txn.exec_params(
               "SELECT commit_seq, tbl, row_id, op, row_version, scopes::text, payload "
               "FROM sync_changes WHERE partition = $1 AND commit_seq >= $2 AND commit_seq <= $3 "
               "ORDER BY commit_seq, idx",
               partition, commits.front().commit_seq, commits.back().commit_seq)) {
        const auto seq = row[0].as<std::int64_t>();
        while (at < commits.size() && commits[at].commit_seq < seq) ++at;
        if (at == commits.size() || commits[at].commit_seq != seq) continue;
        Change change;
        change.table = row[1].c_str();
        change.row_id = row[2].c_str();
        change.op = row[3].as<int>() == 2 ? ChangeOp::remove : ChangeOp::upsert;
        if (!row[4].is_null()) change.row_version = row[4].as<std::int64_t>();
        change.scopes = parse_scopes_json(row[5].c_str(), change.table);
        if (!row[6].is_null()) change.payload = bytes_of(row[6]);
        commits[at].entry.changes.push_back(std::move(change));
      }
      txn.commit();
      return commits;
    });
  }

  std::unique_ptr<PushSession> open_push_session() override {
    return guarded([&] {
      return std::make_unique<PostgresPushSession>(idle_push_, dsn_, schema_,
                                                   options().lock_wait_ms);
    });
  }

 private:
  // Before the first ensure_schema the core tables may not exist yet; a read
  // then answers "nothing stored" rather than a missing-table error.
  // The partition's max commit seq in `txn`'s snapshot, 0 before any commit.
  static std::int64_t max_commit_seq_on(pqxx::transaction_base& txn,
                                        const std::string& partition) {
    if (!has_table(txn, "sync_partitions")) return 0;
    const pqxx::result rows = txn.exec_params(
        "SELECT max_commit_seq FROM sync_partitions WHERE partition = $1", partition);
    return rows.empty() ? 0 : rows[0][0].as<std::int64_t>();
  }

  static bool has_table(pqxx::transaction_base& txn, const char* name) {
    return !txn.exec_params("SELECT 1 FROM pg_class WHERE oid = to_regclass($1)", std::string(name))
                .empty();
  }

  std::string dsn_;
  std::string schema_;
  std::unique_ptr<pqxx::connection> writer_;
  std::unique_ptr<pqxx::connection> reader_;
  std::shared_ptr<IdlePushConnections> idle_push_ =
      std::make_shared<IdlePushConnections>(sql::kMaxIdlePushConnections);
};

}  // namespace

std::unique_ptr<ServerStorage> open_postgres_server_storage(const std::string& dsn,
                                                            const std::string& pg_schema,
                                                            ServerStorageOptions options) {
  return std::make_unique<PostgresServerStorage>(dsn, pg_schema, std::move(options));
}

}  // namespace ssp::storage
