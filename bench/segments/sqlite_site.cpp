// The SQLite site and floor. The floor talks to libsqlite3 directly (no
// wrapper), binds the payload without copying it, and reuses its statements:
// it is the fastest way this SQLite can store and read the same blob.
#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>

#include "bench_site.hpp"
#include "common/scratch_places.hpp"
#include "ssp/segments/segment_id.hpp"
#include "ssp/segments/segment_store_options.hpp"
#include "ssp/sqlite/sqlite_segment_store.hpp"

namespace ssp::bench {
namespace {

[[noreturn]] void fail_floor(sqlite3* db, const std::string& what) {
  throw std::runtime_error("SQLite floor: " + what + ": " + sqlite3_errmsg(db));
}

class SqliteFloor final : public FloorDatabase {
 public:
  SqliteFloor(const std::string& path, SqliteDurability durability) {
    if (sqlite3_open_v2(path.c_str(), &db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
      const std::string message = "cannot open " + path + ": " + sqlite3_errmsg(db_);
      sqlite3_close(db_);
      throw std::runtime_error("SQLite floor: " + message);
    }
    // The same lock wait as a store opened with default options.
    sqlite3_busy_timeout(db_, static_cast<int>(SegmentStoreOptions{}.lock_wait_ms));
    exec(sqlite_durability_pragmas(durability));
    exec("CREATE TABLE IF NOT EXISTS segments(segment_id TEXT PRIMARY KEY, bytes BLOB NOT NULL)");
    insert_ = prepare("INSERT INTO segments(segment_id, bytes) VALUES (?, ?)");
    select_ = prepare("SELECT bytes FROM segments WHERE segment_id = ?");
  }

  ~SqliteFloor() override {
    sqlite3_finalize(insert_);
    sqlite3_finalize(select_);
    sqlite3_close_v2(db_);
  }

  std::string insert(std::span<const std::uint8_t> bytes) override {
    const std::string id = sha256_segment_id(bytes);
    sqlite3_bind_text(insert_, 1, id.data(), static_cast<int>(id.size()), SQLITE_STATIC);
    sqlite3_bind_blob64(insert_, 2, bytes.data(), bytes.size(), SQLITE_STATIC);
    const int rc = sqlite3_step(insert_);
    sqlite3_reset(insert_);
    if (rc != SQLITE_DONE) fail_floor(db_, "insert " + id);
    return id;
  }

  Bytes select(const std::string& id) override {
    sqlite3_bind_text(select_, 1, id.data(), static_cast<int>(id.size()), SQLITE_STATIC);
    if (sqlite3_step(select_) != SQLITE_ROW) {
      sqlite3_reset(select_);
      throw std::runtime_error("SQLite floor: no row for " + id);
    }
    const auto* data = static_cast<const std::uint8_t*>(sqlite3_column_blob(select_, 0));
    Bytes bytes(data, data + sqlite3_column_bytes(select_, 0));
    sqlite3_reset(select_);
    return bytes;
  }

  void in_one_transaction(const std::function<void()>& inserts) override {
    exec("BEGIN IMMEDIATE");
    try {
      inserts();
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    exec("COMMIT");
  }

 private:
  void exec(const std::string& sql) {
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
      fail_floor(db_, sql);
  }

  sqlite3_stmt* prepare(const char* sql) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &statement, nullptr) != SQLITE_OK) fail_floor(db_, sql);
    return statement;
  }

  sqlite3* db_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
  sqlite3_stmt* select_ = nullptr;
};

class SqliteSite final : public BenchSite {
 public:
  explicit SqliteSite(const BenchConfig& config)
      : durability_(config.sqlite_durability), directory_(make_temp_directory()) {
    // Create the tables now, so that threads opening connections later never
    // race on the schema.
    open_store();
    open_floor();
    open_sqlite_segment_store(rows_floor_path(), {}, SqliteSegmentStoreOptions{durability_});
  }

  ~SqliteSite() override {
    sqlite3_close_v2(checkpointer_);
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }

  std::shared_ptr<SegmentStore> open_store() override {
    return open_sqlite_segment_store((directory_ / "store.db").string(), {},
                                     SqliteSegmentStoreOptions{durability_});
  }

  std::unique_ptr<FloorDatabase> open_floor() override {
    return std::make_unique<SqliteFloor>((directory_ / "floor.db").string(), durability_);
  }

  std::unique_ptr<SegmentRowsFloor> open_rows_floor() override {
    return make_sqlite_rows_floor(rows_floor_path(), durability_);
  }

  std::unique_ptr<SegmentRowsFloor> open_rows_floor_on_store() override {
    return make_sqlite_rows_floor((directory_ / "store.db").string(), durability_);
  }

  // RESTART copies every frame back, waits for readers to leave the WAL and
  // makes the next writer start it over, so the next checkpoint's frame count
  // ("log": the WAL's frames before it) is exactly what was committed between
  // the two. (TRUNCATE would report 0: it resets the count itself.)
  std::optional<std::int64_t> wal_written() override {
    if (checkpointer_ == nullptr) {
      const std::string path = (directory_ / "store.db").string();
      if (sqlite3_open_v2(path.c_str(), &checkpointer_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                          nullptr) != SQLITE_OK) {
        fail_floor(checkpointer_, "cannot open " + path + " to checkpoint");
      }
      sqlite3_busy_timeout(checkpointer_, static_cast<int>(SegmentStoreOptions{}.lock_wait_ms));
    }
    sqlite3_stmt* checkpoint = nullptr;
    if (sqlite3_prepare_v2(checkpointer_, "PRAGMA wal_checkpoint(RESTART)", -1, &checkpoint,
                           nullptr) != SQLITE_OK) {
      fail_floor(checkpointer_, "wal_checkpoint");
    }
    const bool done = sqlite3_step(checkpoint) == SQLITE_ROW && sqlite3_column_int(checkpoint, 0) == 0;
    const std::int64_t frames = done ? sqlite3_column_int64(checkpoint, 1) : -1;
    sqlite3_finalize(checkpoint);
    if (!done) fail_floor(checkpointer_, "wal_checkpoint(RESTART) did not complete");
    const bool first = !counting_;
    counting_ = true;
    return first ? 0 : frames;
  }

 private:
  // The rows floor's file: its tables made by the store's DDL.
  std::string rows_floor_path() const { return (directory_ / "rows-floor.db").string(); }

  sqlite3* checkpointer_ = nullptr;
  bool counting_ = false;
  SqliteDurability durability_;
  std::filesystem::path directory_;
};

}  // namespace

std::unique_ptr<BenchSite> make_sqlite_site(const BenchConfig& config) {
  return std::make_unique<SqliteSite>(config);
}

}  // namespace ssp::bench
