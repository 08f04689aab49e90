// The SQLite push site and push floor. The floor talks to libsqlite3
// directly, binds the payload without copying it, reuses its INSERT, and
// takes the write lock with BEGIN IMMEDIATE as a push transaction does. Its
// durability is the storage's: the same PRAGMA text (sqlite_durability_pragmas)
// at the level SSP_BENCH_PUSH_DURABILITY names, FULL unless told.
#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>

#include "push_site.hpp"
#include "scratch_places.hpp"
#include "ssp/storage/sqlite_server_storage.hpp"

namespace ssp::bench {
namespace {

[[noreturn]] void fail_push_floor(sqlite3* db, const std::string& what) {
  throw std::runtime_error("SQLite push floor: " + what + ": " + sqlite3_errmsg(db));
}

class SqlitePushFloor final : public PushFloorDatabase {
 public:
  SqlitePushFloor(const std::string& path, SqliteDurability durability) {
    if (sqlite3_open_v2(path.c_str(), &db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
      const std::string message = "cannot open " + path + ": " + sqlite3_errmsg(db_);
      sqlite3_close(db_);
      throw std::runtime_error("SQLite push floor: " + message);
    }
    sqlite3_busy_timeout(db_, static_cast<int>(storage::ServerStorageOptions{}.lock_wait_ms));
    exec(sqlite_durability_pragmas(durability).c_str());
    exec("CREATE TABLE IF NOT EXISTS push_rows(row_id TEXT PRIMARY KEY, payload BLOB NOT NULL)");
    if (sqlite3_prepare_v2(db_, "INSERT INTO push_rows(row_id, payload) VALUES (?, ?)", -1,
                           &insert_, nullptr) != SQLITE_OK) {
      fail_push_floor(db_, "prepare the INSERT");
    }
  }

  ~SqlitePushFloor() override {
    sqlite3_finalize(insert_);
    sqlite3_close_v2(db_);
  }

  void insert_rows(std::span<const push::PushOperation> operations) override {
    exec("BEGIN IMMEDIATE");
    try {
      for (const push::PushOperation& operation : operations) {
        const storage::Bytes& payload = operation.payload.value();
        sqlite3_bind_text(insert_, 1, operation.row_id.data(),
                          static_cast<int>(operation.row_id.size()), SQLITE_STATIC);
        sqlite3_bind_blob64(insert_, 2, payload.data(), payload.size(), SQLITE_STATIC);
        const int rc = sqlite3_step(insert_);
        sqlite3_reset(insert_);
        if (rc != SQLITE_DONE) fail_push_floor(db_, "insert " + operation.row_id);
      }
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
    exec("COMMIT");
  }

 private:
  void exec(const char* sql) {
    if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail_push_floor(db_, sql);
  }

  sqlite3* db_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
};

class SqlitePushSite final : public PushSite {
 public:
  explicit SqlitePushSite(SqliteDurability durability)
      : directory_(make_temp_directory()), durability_(durability) {
    // Tables first, so that threads opening storages later only compare.
    open_storage();
    open_floor();
  }

  ~SqlitePushSite() override {
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }

  std::unique_ptr<storage::ServerStorage> open_storage() override {
    auto storage =
        storage::open_sqlite_server_storage((directory_ / "server.db").string(), {}, {durability_});
    storage->ensure_schema(schema());
    return storage;
  }

  std::unique_ptr<PushFloorDatabase> open_floor() override {
    return std::make_unique<SqlitePushFloor>((directory_ / "push-floor.db").string(), durability_);
  }

 private:
  std::filesystem::path directory_;
  SqliteDurability durability_;
};

}  // namespace

std::unique_ptr<PushSite> make_sqlite_push_site(const BenchConfig& config) {
  return std::make_unique<SqlitePushSite>(config.push_sqlite_durability);
}

}  // namespace ssp::bench
