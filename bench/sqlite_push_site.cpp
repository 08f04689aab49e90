// The SQLite push site and push floor. The floor talks to libsqlite3
// directly, binds the payload without copying it, reuses its INSERT, and
// takes the write lock with BEGIN IMMEDIATE as a push transaction does. Its
// durability is the storage's: WAL, and the library's default synchronous
// level (the storage sets none).
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
  explicit SqlitePushFloor(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK) {
      const std::string message = "cannot open " + path + ": " + sqlite3_errmsg(db_);
      sqlite3_close(db_);
      throw std::runtime_error("SQLite push floor: " + message);
    }
    sqlite3_busy_timeout(db_, static_cast<int>(storage::ServerStorageOptions{}.lock_wait_ms));
    exec("PRAGMA journal_mode=WAL");
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
  SqlitePushSite() : directory_(make_temp_directory()) {
    // Tables first, so that threads opening storages later only compare.
    open_storage();
    open_floor();
  }

  ~SqlitePushSite() override {
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }

  std::unique_ptr<storage::ServerStorage> open_storage() override {
    auto storage = storage::open_sqlite_server_storage((directory_ / "server.db").string());
    storage->ensure_schema(schema());
    return storage;
  }

  std::unique_ptr<PushFloorDatabase> open_floor() override {
    return std::make_unique<SqlitePushFloor>((directory_ / "push-floor.db").string());
  }

 private:
  std::filesystem::path directory_;
};

}  // namespace

std::unique_ptr<PushSite> make_sqlite_push_site(const BenchConfig&) {
  return std::make_unique<SqlitePushSite>();
}

std::string sqlite_server_storage_durability() {
  sqlite3* db = nullptr;
  std::string level = "?";
  if (sqlite3_open(":memory:", &db) == SQLITE_OK) {
    sqlite3_stmt* read = nullptr;
    if (sqlite3_prepare_v2(db, "PRAGMA synchronous", -1, &read, nullptr) == SQLITE_OK &&
        sqlite3_step(read) == SQLITE_ROW) {
      static constexpr const char* kLevels[] = {"OFF", "NORMAL", "FULL", "EXTRA"};
      const int value = sqlite3_column_int(read, 0);
      level = value >= 0 && value <= 3 ? kLevels[value] : std::to_string(value);
    }
    sqlite3_finalize(read);
  }
  sqlite3_close(db);
  return "PRAGMA journal_mode=WAL; synchronous=" + level + " (library default)";
}

}  // namespace ssp::bench
