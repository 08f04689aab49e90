// The SQLite push site and its two floors. Both talk to libsqlite3 directly,
// bind values without copying them where they can, prepare each statement
// once, and take the write lock with BEGIN IMMEDIATE as a push transaction
// does. Their durability is the storage's: the same PRAGMA text
// (sqlite_durability_pragmas) at the level SSP_BENCH_PUSH_DURABILITY names,
// FULL unless told.
#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>
#include <variant>
#include <vector>

#include "common/scratch_places.hpp"
#include "push_rows.hpp"
#include "push_rows_floor.hpp"
#include "push_site.hpp"
#include "ssp/sqlite/sqlite_server_storage.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/storage_ddl.hpp"

namespace ssp::bench {
namespace {

// "?, ?, ?": `count` placeholders.
std::string placeholders(std::size_t count) {
  std::string out;
  for (std::size_t i = 1; i <= count; ++i) out += i > 1 ? ", ?" : "?";
  return out;
}

// The rows floor's statements, one row each.
struct PushRowsStatements {
  std::string next_commit_seq, app_row, row_scope, commit, change, change_scope, result;
};

PushRowsStatements push_rows_statements(const storage::CompiledTable& table) {
  const std::vector<std::string> columns = storage::table_column_names(table);
  std::string column_list;
  for (const std::string& column : columns) {
    column_list += (column_list.empty() ? "" : ", ") + storage::quote_identifier(column);
  }
  const auto p = placeholders;
  return {
      "INSERT INTO sync_partitions (partition, max_commit_seq) VALUES (" + p(1) +
          ", 1) ON CONFLICT (partition) DO UPDATE SET max_commit_seq = "
          "sync_partitions.max_commit_seq + 1 RETURNING max_commit_seq",
      "INSERT INTO " + storage::quote_identifier(table.name()) + " (" + column_list + ") VALUES (" +
          p(columns.size()) + ")",
      "INSERT INTO sync_row_scopes (partition, tbl, var, value, row_id) VALUES (" + p(5) + ")",
      "INSERT INTO sync_commits (partition, commit_seq, client_id, client_commit_id, actor_id, "
      "created_at_ms) VALUES (" +
          p(6) + ")",
      "INSERT INTO sync_changes (partition, commit_seq, idx, tbl, row_id, op, row_version, "
      "scopes, payload) VALUES (" +
          p(9) + ")",
      "INSERT INTO sync_change_scopes (partition, tbl, var, value, commit_seq) VALUES (" + p(5) +
          ")",
      "INSERT INTO sync_push_results (partition, client_id, client_commit_id, result) VALUES (" +
          p(4) + ")",
  };
}

[[noreturn]] void fail_push_floor(sqlite3* db, const std::string& what) {
  throw std::runtime_error("SQLite push floor: " + what + ": " + sqlite3_errmsg(db));
}

// A floor's own connection through the raw library: the file at the
// storage's durability, busy waits as long as a push's, and its statements,
// finalized before the connection closes.
class FloorConnection {
 public:
  FloorConnection(const std::string& path, SqliteDurability durability) {
    if (sqlite3_open_v2(path.c_str(), &db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
      const std::string message = "cannot open " + path + ": " + sqlite3_errmsg(db_);
      sqlite3_close(db_);
      throw std::runtime_error("SQLite push floor: " + message);
    }
    sqlite3_busy_timeout(db_, static_cast<int>(storage::ServerStorageOptions{}.lock_wait_ms));
    exec(sqlite_durability_pragmas(durability).c_str());
  }
  ~FloorConnection() {
    for (sqlite3_stmt* statement : statements_) sqlite3_finalize(statement);
    sqlite3_close_v2(db_);
  }
  FloorConnection(const FloorConnection&) = delete;
  FloorConnection& operator=(const FloorConnection&) = delete;

  sqlite3* db() const { return db_; }
  void exec(const char* sql) {
    if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail_push_floor(db_, sql);
  }
  // `sql` prepared once; it lives as long as the connection.
  sqlite3_stmt* prepare(const std::string& sql) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
      fail_push_floor(db_, "prepare " + sql);
    }
    statements_.push_back(statement);
    return statement;
  }
  // Steps `statement` to its end and rewinds it; fails naming `what`.
  void run(sqlite3_stmt* statement, const std::string& what) {
    const int rc = sqlite3_step(statement);
    sqlite3_reset(statement);
    if (rc != SQLITE_DONE) fail_push_floor(db_, what);
  }
  // `write()` between BEGIN IMMEDIATE (the write lock a push transaction
  // takes) and COMMIT, rolled back when it throws.
  template <typename Write>
  void in_transaction(Write&& write) {
    exec("BEGIN IMMEDIATE");
    try {
      write();
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    exec("COMMIT");
  }

 private:
  sqlite3* db_ = nullptr;
  std::vector<sqlite3_stmt*> statements_;
};

class SqlitePushFloor final : public PushFloorDatabase {
 public:
  SqlitePushFloor(const std::string& path, SqliteDurability durability)
      : connection_(path, durability) {
    connection_.exec(
        "CREATE TABLE IF NOT EXISTS push_rows(row_id TEXT PRIMARY KEY, payload BLOB NOT NULL)");
    insert_ = connection_.prepare("INSERT INTO push_rows(row_id, payload) VALUES (?, ?)");
  }

  void insert_rows(std::span<const push::PushOperation> operations) override {
    connection_.in_transaction([&] {
      for (const push::PushOperation& operation : operations) {
        const storage::Bytes& payload = operation.payload.value();
        sqlite3_bind_text(insert_, 1, operation.row_id.data(),
                          static_cast<int>(operation.row_id.size()), SQLITE_STATIC);
        sqlite3_bind_blob64(insert_, 2, payload.data(), payload.size(), SQLITE_STATIC);
        connection_.run(insert_, "insert " + operation.row_id);
      }
    });
  }

 private:
  FloorConnection connection_;
  sqlite3_stmt* insert_;
};

// The rows floor: a file the server storage's ensure_schema made, written
// with the raw library (push_rows_floor.hpp).
class SqlitePushRowsFloor final : public PushRowsFloor {
 public:
  SqlitePushRowsFloor(const std::string& path, SqliteDurability durability,
                      const storage::CompiledTable& table)
      : connection_(path, durability), table_(table) {
    const PushRowsStatements sql = push_rows_statements(table);
    next_commit_seq_ = connection_.prepare(sql.next_commit_seq);
    app_row_ = connection_.prepare(sql.app_row);
    row_scope_ = connection_.prepare(sql.row_scope);
    commit_ = connection_.prepare(sql.commit);
    change_ = connection_.prepare(sql.change);
    change_scope_ = connection_.prepare(sql.change_scope);
    result_ = connection_.prepare(sql.result);
  }

  void write_commit(const push::PushCommit& commit, const std::string& partition,
                    std::int64_t now_ms) override {
    const PushedCommit pushed = pushed_commit(table_, commit, "project");
    connection_.in_transaction([&] {
      text(next_commit_seq_, 1, partition);
      if (sqlite3_step(next_commit_seq_) != SQLITE_ROW) {
        fail_push_floor(connection_.db(), "next commit seq");
      }
      const std::int64_t seq = sqlite3_column_int64(next_commit_seq_, 0);
      connection_.run(next_commit_seq_, "next commit seq");
      for (const PushedRow& row : pushed.rows) {
        int next = 1;
        text(app_row_, next++, partition);
        text(app_row_, next++, row.row_id);
        for (const storage::RowValue& value : row.projection) bind(app_row_, next++, value);
        sqlite3_bind_int64(app_row_, next++, 1);  // the row's first server version
        text(app_row_, next++, row.scopes_json);
        blob(app_row_, next++, *row.payload);
        sqlite3_bind_null(app_row_, next);
        connection_.run(app_row_, "insert row " + row.row_id);
        bind_texts(row_scope_, {partition, table_.name(), "project", row.scope_value, row.row_id});
        connection_.run(row_scope_, "insert the scope of " + row.row_id);
      }
      bind_texts(commit_, {partition});
      sqlite3_bind_int64(commit_, 2, seq);
      text(commit_, 3, commit.client_id);
      text(commit_, 4, commit.client_commit_id);
      text(commit_, 5, kActor);
      sqlite3_bind_int64(commit_, 6, now_ms);
      connection_.run(commit_, "insert the commit");
      for (std::size_t i = 0; i < pushed.rows.size(); ++i) {
        const PushedRow& row = pushed.rows[i];
        text(change_, 1, partition);
        sqlite3_bind_int64(change_, 2, seq);
        sqlite3_bind_int64(change_, 3, static_cast<std::int64_t>(i));
        text(change_, 4, table_.name());
        text(change_, 5, row.row_id);
        sqlite3_bind_int64(change_, 6, 1);  // ChangeOp::upsert
        sqlite3_bind_int64(change_, 7, 1);
        text(change_, 8, row.scopes_json);
        blob(change_, 9, *row.payload);
        connection_.run(change_, "insert change " + std::to_string(i));
      }
      for (const std::string& value : pushed.change_scope_values) {
        bind_texts(change_scope_, {partition, table_.name(), "project", value});
        sqlite3_bind_int64(change_scope_, 5, seq);
        connection_.run(change_scope_, "insert a change scope");
      }
      const std::string result =
          pushed.result_json_prefix + std::to_string(seq) + pushed.result_json_suffix;
      bind_texts(result_, {partition, commit.client_id, commit.client_commit_id, result});
      connection_.run(result_, "insert the result");
    });
  }

 private:
  // Bound without a copy: each value outlives its statement's run.
  static void text(sqlite3_stmt* statement, int index, const std::string& value) {
    sqlite3_bind_text(statement, index, value.data(), static_cast<int>(value.size()),
                      SQLITE_STATIC);
  }
  // Copied: the values may be temporaries.
  static void bind_texts(sqlite3_stmt* statement, std::initializer_list<std::string> values) {
    int index = 1;
    for (const std::string& value : values) {
      sqlite3_bind_text(statement, index++, value.data(), static_cast<int>(value.size()),
                        SQLITE_TRANSIENT);
    }
  }
  static void blob(sqlite3_stmt* statement, int index, const storage::Bytes& value) {
    sqlite3_bind_blob64(statement, index, value.data(), value.size(), SQLITE_STATIC);
  }
  // A projection value of the workload: text, flag or null.
  static void bind(sqlite3_stmt* statement, int index, const storage::RowValue& value) {
    if (const auto* text_value = std::get_if<std::string>(&value)) {
      text(statement, index, *text_value);
    } else if (const auto* flag = std::get_if<bool>(&value)) {
      sqlite3_bind_int64(statement, index, *flag ? 1 : 0);
    } else {
      sqlite3_bind_null(statement, index);
    }
  }

  inline static const std::string kActor = "bench-actor";  // the push benchmark's actor

  FloorConnection connection_;
  const storage::CompiledTable& table_;
  sqlite3_stmt *next_commit_seq_, *app_row_, *row_scope_, *commit_, *change_, *change_scope_,
      *result_;
};

class SqlitePushSite final : public PushSite {
 public:
  explicit SqlitePushSite(SqliteDurability durability)
      : directory_(make_temp_directory()), durability_(durability) {
    // Tables first, so that threads opening storages later only compare; the
    // rows floor's are the storage's own DDL, in a file of their own.
    open_storage();
    open_floor();
    storage::open_sqlite_server_storage(rows_floor_path(), {}, {durability_})
        ->ensure_schema(schema());
  }

  ~SqlitePushSite() override {
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }

  std::unique_ptr<storage::ServerStorage> open_storage() override {
    auto storage = storage::open_sqlite_server_storage(storage_path(), {}, {durability_});
    storage->ensure_schema(schema());
    return storage;
  }

  PushStoragePlace storage_place() const override {
    return {BenchBackend::sqlite, storage_path(), {}, {}};
  }

  std::unique_ptr<PushRowsFloor> open_rows_floor() override {
    return std::make_unique<SqlitePushRowsFloor>(rows_floor_path(), durability_,
                                                 *schema().find("tasks"));
  }

  std::unique_ptr<PushFloorDatabase> open_floor() override {
    return std::make_unique<SqlitePushFloor>((directory_ / "push-floor.db").string(), durability_);
  }

 private:
  std::string storage_path() const { return (directory_ / "server.db").string(); }
  std::string rows_floor_path() const { return (directory_ / "push-rows-floor.db").string(); }

  std::filesystem::path directory_;
  SqliteDurability durability_;
};

}  // namespace

std::unique_ptr<PushSite> make_sqlite_push_site(const BenchConfig& config) {
  return std::make_unique<SqlitePushSite>(config.push_sqlite_durability);
}

}  // namespace ssp::bench
