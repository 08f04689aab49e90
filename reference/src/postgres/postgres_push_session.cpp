#include "postgres_push_session.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "array_literal.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/storage_ddl.hpp"
#include "statement_batch.hpp"
#include "statement_merge.hpp"
#include "storage_postgres_sql.hpp"

namespace ssp::storage {
namespace {

constexpr const char* kBegin = "BEGIN ISOLATION LEVEL READ COMMITTED";

// A staged statement; an app-row write carries its operation's index, which a
// constraint violation of it is reported at.
struct StagedStatement {
  Statement statement;
  std::optional<std::int64_t> op_index;
};

// Rows this transaction knows under the partition lock: read ahead, read, or
// written by it. Absent means known to be absent. The lock keeps them
// current: every other writer of the partition waits for it.
using KnownRowKey = std::pair<std::string, std::string>;  // table, row id
using KnownRows = std::map<KnownRowKey, std::optional<StoredRow>>;

// The key of a stored push result within the partition.
struct PushKey {
  std::string client_id;
  std::string client_commit_id;
};

class PostgresPushSession final : public PushSession {
 public:
  PostgresPushSession(std::shared_ptr<IdlePushConnections> idle, const std::string& dsn,
                      const std::string& schema, std::int64_t lock_wait_ms)
      : idle_(std::move(idle)),
        connection_(idle_->take_or([&] {
          return std::make_unique<PushConnection>(open_connection(dsn, schema, lock_wait_ms));
        })),
        statements_(&connection_->statements),
        txn_(std::in_place, *connection_->connection) {}

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
  // the lock. The counter read under the lock lets a staged append number its
  // commit without asking.
  //
  // The row is locked by an update (the upsert's no-op conflict action), not
  // SELECT … FOR UPDATE as upstream does: the counter update runs later
  // inside the savepoint, and a subtransaction updating a row its parent only
  // locked makes PostgreSQL create a MultiXact, one per push (500 over 500
  // pushes; none now), which every later lock of the row resolves and vacuum
  // has to freeze. The two lock modes exclude each other, so upstream on the
  // same database still serializes with this (docs/decisions.md, push.md Q2;
  // PUSH-REF-7).
  void lock_partition(const std::string& partition) override {
    guarded([&] {
      StatementBatch batch(connection(), *statements_);
      // One statement creates the row if absent and locks it either way: an
      // upsert whose conflict action rewrites the row unchanged (issue 37:
      // one statement less than INSERT … DO NOTHING then a no-op UPDATE).
      Statement lock{
          "INSERT INTO sync_partitions (partition, max_commit_seq) VALUES ($1, 0) "
          "ON CONFLICT (partition) DO UPDATE SET max_commit_seq = sync_partitions.max_commit_seq",
          {}};
      lock.params.add(partition);
      // Read after the savepoint: a batch answers with its last statement.
      Statement counter{"SELECT max_commit_seq FROM sync_partitions WHERE partition = $1", {}};
      counter.params.add(partition);
      batch.add(lock);
      batch.add("SAVEPOINT syncular_push_candidate");
      batch.add(counter);
      const pqxx::result rows = send_text(batch.take());
      seq_at_lock_ = rows[0][0].as<std::int64_t>();
      seq_ = seq_at_lock_;
      return 0;
    });
  }

  void rollback_to_candidate() override {
    guarded([&] {
      send_text(
          "ROLLBACK TO SAVEPOINT syncular_push_candidate; RELEASE SAVEPOINT "
          "syncular_push_candidate");
      return 0;
    });
    // The savepoint is gone: what follows is sent as it comes.
    forget_staged_state();
    staging_ = false;
    seq_.reset();
  }

  void prefetch_rows(const CompiledTable& table, const std::string& partition,
                     const std::vector<std::string>& row_ids) override {
    if (!seq_) return;  // only the lock keeps what was read ahead current
    std::vector<std::string> unknown;
    for (const auto& row_id : row_ids) {
      if (!known_.count({table.name(), row_id})) unknown.push_back(row_id);
    }
    if (unknown.empty()) return;
    partition_ = partition;
    prefetch_.emplace_back(&table, std::move(unknown));
  }

  void stage_writes() override {
    if (seq_) staging_ = true;
  }

  void flush_writes() override {
    guarded([&] {
      send_staged();
      return 0;
    });
  }

  std::optional<std::string> read_push_result(const std::string& partition,
                                              const std::string& client_id,
                                              const std::string& client_commit_id) override {
    return guarded([&]() -> std::optional<std::string> {
      if (!prefetch_.empty()) {
        const PushKey recheck{client_id, client_commit_id};
        return read_ahead(&recheck);
      }
      open_transaction();
      return read_push_result_on(*txn_, partition, client_id, client_commit_id, statements_);
    });
  }

  void insert_push_result(const std::string& partition, const std::string& client_id,
                          const std::string& client_commit_id,
                          const std::string& result_json) override {
    submit(push_result_insert(partition, client_id, client_commit_id, result_json));
  }

  std::optional<StoredRow> read_row(const CompiledTable& table, const std::string& partition,
                                    const std::string& row_id) override {
    return guarded([&] {
      if (!prefetch_.empty()) read_ahead(nullptr);
      if (const auto known = known_.find({table.name(), row_id}); known != known_.end()) {
        return known->second;
      }
      open_transaction();
      auto row = read_row_on(*txn_, table, partition, row_id, statements_);
      if (seq_) known_[{table.name(), row_id}] = row;
      return row;
    });
  }

  std::vector<StoredRow> scan_rows(const std::string& partition, const CheckedScan& scan) override {
    return guarded([&] {
      send_staged();  // the scan must see them
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
      open_transaction();
      std::vector<StoredRow> rows;
      for (const auto& row : params.exec(*txn_, sql, statements_)) {
        rows.push_back(stored_row_from(row, scan.table->name()));
      }
      return rows;
    });
  }

  void write_row(const CompiledTable& table, const std::string& partition, const StoredRow& row,
                 const Row& values, std::int64_t op_index) override {
    submit(app_row_upsert(table, partition, row, values), op_index);
    for (auto& statement :
         row_scopes_replacement(table, partition, row, known_absent(table, row.row_id))) {
      submit(std::move(statement));
    }
    if (seq_) known_[{table.name(), row.row_id}] = row;
  }

  void delete_row(const CompiledTable& table, const std::string& partition,
                  const std::string& row_id) override {
    for (auto& statement : row_deletion(table, partition, row_id)) submit(std::move(statement));
    if (seq_) known_[{table.name(), row_id}] = std::nullopt;
  }

  // Unstaged: one atomic statement, whose row lock serializes same-partition
  // appends to commit; a rollback undoes the increment (no gap, D-1). Staged,
  // the lock is already held and the counter known: the update is staged.
  std::int64_t next_commit_seq(const std::string& partition) override {
    if (staging_) {
      ++*seq_;
      Statement update{"UPDATE sync_partitions SET max_commit_seq = $2 WHERE partition = $1", {}};
      update.params.add(partition).add(std::to_string(*seq_));
      update.writes = write_key({"sync_partitions", partition});
      update.independent = true;
      submit(std::move(update));
      return *seq_;
    }
    return guarded([&] {
      Statement next{
          "INSERT INTO sync_partitions (partition, max_commit_seq) VALUES ($1, 1) "
          "ON CONFLICT (partition) DO UPDATE SET max_commit_seq = "
          "sync_partitions.max_commit_seq + 1 RETURNING max_commit_seq",
          {}};
      next.params.add(partition);
      const auto seq = send_now(next)[0][0].as<std::int64_t>();
      if (seq_) seq_ = seq;
      return seq;
    });
  }

  // Staged, this sends every staged write with the commit log: a constraint
  // violation among them surfaces here.
  void write_commit(const std::string& partition, std::int64_t commit_seq, const CommitEntry& entry,
                    const std::vector<ChangeScope>& scopes) override {
    for (auto& statement : commit_log_writes(partition, commit_seq, entry, scopes)) {
      submit(std::move(statement));
    }
    guarded([&] {
      send_staged();
      return 0;
    });
  }

  void commit() override {
    guarded([&] {
      // Row writes still staged are sent first, so that a violation among
      // them is reported at its operation.
      if (std::any_of(unsent_.begin(), unsent_.end(),
                      [](const StagedStatement& staged) { return staged.op_index.has_value(); })) {
        send_staged();
      }
      StatementBatch batch = staged_batch();
      batch.add("COMMIT");
      unsent_.clear();
      open_ = false;
      send_text(batch.take());
      return 0;
    });
    ended_cleanly_ = true;
  }

  void rollback() noexcept override {
    if (!open_) return;
    open_ = false;
    if (!begun_) {
      ended_cleanly_ = true;  // nothing was sent
      return;
    }
    try {
      txn_->exec("ROLLBACK");
      ended_cleanly_ = true;
    } catch (...) {
      // The connection closes with the session; the server rolls back then.
    }
  }

 private:
  pqxx::connection& connection() { return *connection_->connection; }

  // Whether the row is known, under the partition lock, not to exist: read
  // (or read ahead) absent, or deleted, since the lock was taken. known_
  // holds only what was seen under the lock.
  bool known_absent(const CompiledTable& table, const std::string& row_id) const {
    const auto known = known_.find({table.name(), row_id});
    return seq_ && known != known_.end() && !known->second;
  }

  // BEGIN is sent with the first statement: alone before a prepared one, in
  // the batch before a batch.
  void open_transaction() {
    if (begun_) return;
    txn_->exec(kBegin);
    begun_ = true;
  }
  pqxx::result send_text(const std::string& text) {
    if (begun_) return txn_->exec(text);
    begun_ = true;
    return txn_->exec(std::string(kBegin) + ";\n" + text);
  }
  pqxx::result send_now(const Statement& statement) {
    open_transaction();
    return run(*txn_, statement, statements_);
  }

  // A write: staged, or sent now (an app-row write, which carries its
  // operation's index, through write_row_now).
  void submit(Statement statement, std::optional<std::int64_t> op_index = std::nullopt) {
    if (staging_) {
      unsent_.push_back({std::move(statement), op_index});
      return;
    }
    guarded([&] {
      if (op_index) {
        write_row_now(statement, *op_index);
      } else {
        send_now(statement);
      }
      return 0;
    });
  }

  // The app-row statement under a savepoint of its own: a constraint
  // violation (SQLSTATE class 23) aborts only that statement, so the
  // transaction stays usable whether or not the partition lock was taken
  // (docs/decisions.md, constraint isolation).
  void write_row_now(const Statement& upsert, std::int64_t op_index) {
    open_transaction();
    txn_->exec("SAVEPOINT syncular_row_write");
    try {
      run(*txn_, upsert, statements_);
    } catch (const pqxx::sql_error& error) {
      if (!is_constraint_violation(error)) throw;
      txn_->exec("ROLLBACK TO SAVEPOINT syncular_row_write; RELEASE SAVEPOINT syncular_row_write");
      throw StorageConstraintError(op_index);
    }
    txn_->exec("RELEASE SAVEPOINT syncular_row_write");
  }

  // The rows read ahead, in one statement that also runs the idempotency
  // recheck of `recheck` when given: each row tagged with its table, the
  // recheck's text alone in the last column. Returns the recheck's answer.
  //
  // Each wanted row id is looked up on its own, by the whole key, through
  // LATERAL with OFFSET 0 (which keeps the lookup a per-id subquery): that
  // plan stays right whatever the table's size when the connection prepared
  // it. `row_id = ANY($n)` did not: its generic plan, made while the table
  // was empty, matched the ids as a filter over the partition's whole index
  // range, so every push read every row of its partition until an ANALYZE
  // (issue 22: 10-operation pushes fell from 424 to 106 commits/s over
  // 3,000 pushes into a new table; auto_explain showed the plan).
  std::optional<std::string> read_ahead(const PushKey* recheck) {
    Statement statement;
    Params& params = statement.params;
    params.add(partition_);
    std::string& sql = statement.sql;
    for (const auto& [table, row_ids] : prefetch_) {
      sql += sql.empty() ? "SELECT " : " UNION ALL SELECT ";
      sql += params.next_placeholder() + "::text, stored.*, NULL::text FROM unnest(";
      params.add(table->name());
      sql += params.next_placeholder() + "::text[]) AS wanted(row_id), LATERAL (SELECT " +
             row_columns_sql() + " FROM " + quote_identifier(table->name()) + " WHERE " +
             quote_identifier(kPartitionColumn) + " = $1 AND " + quote_identifier(kRowIdColumn) +
             " = wanted.row_id OFFSET 0) AS stored";
      params.add(postgres::text_array(row_ids));
    }
    if (recheck != nullptr) {
      sql +=
          " UNION ALL SELECT NULL::text, NULL::text, NULL::bigint, NULL::text, NULL::bytea, "
          "result::text FROM sync_push_results WHERE partition = $1 AND client_id = " +
          params.next_placeholder();
      params.add(recheck->client_id);
      sql += " AND client_commit_id = " + params.next_placeholder();
      params.add(recheck->client_commit_id);
    }
    std::optional<std::string> result;
    KnownRows read;
    for (const auto& row : send_now(statement)) {
      if (row[0].is_null()) {
        result = row[5].c_str();
        continue;
      }
      const std::string table = row[0].c_str();
      StoredRow stored = stored_row_from(row, table, 1);
      KnownRowKey key{table, stored.row_id};
      read.emplace(std::move(key), std::move(stored));
    }
    // What this transaction wrote since the hint was given stays what it reads.
    for (const auto& [table, row_ids] : prefetch_) {
      for (const auto& row_id : row_ids) {
        KnownRowKey key{table->name(), row_id};
        const auto found = read.find(key);
        known_.emplace(key, found == read.end() ? std::nullopt : found->second);
      }
    }
    prefetch_.clear();
    return result;
  }

  // Sends the staged statements as one batch. On a constraint violation the
  // batch is undone back to the candidate savepoint and every staged
  // statement since the lock is replayed one at a time, as an unstaged
  // transaction would have run them: the first violating row write throws
  // StorageConstraintError at its operation, with everything since the lock
  // rolled back and the transaction usable.
  void send_staged() {
    if (unsent_.empty()) return;
    StatementBatch batch = staged_batch();
    std::vector<StagedStatement> sending = std::move(unsent_);
    unsent_.clear();
    try {
      send_text(batch.take());
    } catch (const pqxx::sql_error& error) {
      if (!is_constraint_violation(error)) throw;
      sent_.insert(sent_.end(), std::make_move_iterator(sending.begin()),
                   std::make_move_iterator(sending.end()));
      replay_sent();
      return;
    }
    sent_.insert(sent_.end(), std::make_move_iterator(sending.begin()),
                 std::make_move_iterator(sending.end()));
  }

  // The staged statements as a batch, their one-row INSERTs merged
  // (statement_merge.hpp). A violation in it is found again by the replay,
  // which runs the staged statements themselves, one at a time.
  StatementBatch staged_batch() {
    std::vector<const Statement*> statements;
    statements.reserve(unsent_.size());
    for (const auto& staged : unsent_) statements.push_back(&staged.statement);
    StatementBatch batch(connection(), *statements_);
    for (const Statement& statement : merge_row_inserts(statements)) batch.add(statement);
    return batch;
  }

  void replay_sent() {
    txn_->exec("ROLLBACK TO SAVEPOINT syncular_push_candidate");
    for (const auto& staged : sent_) {
      if (!staged.op_index) {
        run(*txn_, staged.statement, statements_);
        continue;
      }
      try {
        write_row_now(staged.statement, *staged.op_index);
      } catch (const StorageConstraintError&) {
        txn_->exec("ROLLBACK TO SAVEPOINT syncular_push_candidate");
        forget_staged_state();
        throw;
      }
    }
  }

  // What the candidate savepoint undoes: the staged statements and the rows
  // known since the lock (kept simple: all of them; they are read again).
  void forget_staged_state() {
    unsent_.clear();
    sent_.clear();
    known_.clear();
    prefetch_.clear();
    if (seq_) seq_ = seq_at_lock_;
  }

  std::shared_ptr<IdlePushConnections> idle_;
  std::unique_ptr<PushConnection> connection_;
  postgres::PreparedStatements* statements_;  // connection_'s
  std::optional<pqxx::nontransaction> txn_;   // on *connection_, reset before it is given back
  bool begun_ = false;                        // BEGIN sent
  bool open_ = true;                          // neither committed nor rolled back
  bool ended_cleanly_ = false;

  // Under the lock: the counter as the lock read it, and as this transaction
  // has advanced it. Empty without the lock.
  std::int64_t seq_at_lock_ = 0;
  std::optional<std::int64_t> seq_;
  bool staging_ = false;
  std::string partition_;
  std::vector<std::pair<const CompiledTable*, std::vector<std::string>>> prefetch_;
  KnownRows known_;
  std::vector<StagedStatement> unsent_;  // staged, not yet sent
  std::vector<StagedStatement> sent_;    // staged and sent since the lock
};

}  // namespace

std::unique_ptr<PushSession> open_postgres_push_session(std::shared_ptr<IdlePushConnections> idle,
                                                        const std::string& dsn,
                                                        const std::string& schema,
                                                        std::int64_t lock_wait_ms) {
  return std::make_unique<PostgresPushSession>(std::move(idle), dsn, schema, lock_wait_ms);
}

}  // namespace ssp::storage
