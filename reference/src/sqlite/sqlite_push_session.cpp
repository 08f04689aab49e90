#include "sqlite_push_session.hpp"

#include <unordered_map>

#include "sqlite_row_statements.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/storage_ddl.hpp"
#include "ssp/storage/storage_errors.hpp"
#include "ssp/storage/stored_scopes.hpp"

namespace ssp::storage {
namespace {

using sqlite::Connection;
using sqlite::Statement;
using sqlite::Transaction;

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

}  // namespace

std::unique_ptr<PushSession> open_sqlite_push_session(
    std::shared_ptr<IdlePushConnections> idle, std::unique_ptr<sqlite::Connection> connection) {
  return std::make_unique<SqlitePushSession>(std::move(idle), std::move(connection));
}

}  // namespace ssp::storage
