// The SQLite test database: a file in a fresh temporary directory, removed
// with the object.
#pragma once

#include <sqlite3.h>

#include <filesystem>

#include "harness/backends/test_database.hpp"

namespace ssp::harness {

class SqliteTestDatabase final : public TestDatabase {
 public:
  SqliteTestDatabase();
  ~SqliteTestDatabase() override;

  const DatabaseLocation& location() const override { return location_; }
  void exec(const std::string& sql) override;
  std::vector<std::string> query_column(const std::string& sql) override;
  std::string dump_segment_tables() override;
  std::string dump_all_tables() override;
  std::vector<std::string> column_names(const std::string& table) override;
  void drop_column(const std::string& table, const std::string& column) override;
  std::vector<std::string> index_names(const std::string& table) override;
  void inject_insert_failure(const std::string& table, int after_rows) override;
  void inject_write_failure(int after_writes) override;
  bool inject_commit_failure() override;
  void clear_injected_failures() override;
  void hold_write_lock() override;
  void release_write_lock() override;
  bool shows_lock_waits(int waiters) override;
  bool shows_sessions_waiting(const std::vector<std::string>& application_names) override {
    return shows_lock_waits(static_cast<int>(application_names.size()));
  }
  LockWaitEvidence lock_wait_evidence() const override { return LockWaitEvidence::held_write_lock; }

 private:
  std::filesystem::path directory_;
  DatabaseLocation location_;
  sqlite3* db_ = nullptr;           // the harness's own connection
  sqlite3* lock_holder_ = nullptr;  // open while hold_write_lock is in force
  std::vector<std::string> triggers_;
  bool write_failure_ = false;  // inject_write_failure is in force
};

}  // namespace ssp::harness
