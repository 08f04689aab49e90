// The PostgreSQL test database: a fresh schema ssp_t_<random> in the server
// named by SSP_PG_DSN, dropped with the object, so tests run in parallel.
#pragma once

#include <memory>
#include <mutex>
#include <pqxx/pqxx>

#include "harness/backends/test_database.hpp"

namespace ssp::harness {

class PostgresTestDatabase final : public TestDatabase {
 public:
  explicit PostgresTestDatabase(const std::string& dsn);
  ~PostgresTestDatabase() override;

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
  bool shows_sessions_waiting(const std::vector<std::string>& application_names) override;
  LockWaitEvidence lock_wait_evidence() const override {
    return LockWaitEvidence::waiting_connections;
  }

 private:
  // `name` in the test's schema, quoted, for objects inject_write_failure
  // creates (the store's connections see them under their own search_path).
  std::string injected_name(const std::string& name);

  DatabaseLocation location_;
  // The harness's own, search_path set; from the pool, and back to it when
  // the schema is dropped (postgres_connection_pool.hpp).
  std::unique_ptr<pqxx::connection> connection_;
  // A libpq connection serves one thread at a time, and racing sessions ask
  // shows_lock_waits together: every use of connection_ holds this.
  std::mutex connection_mutex_;
  std::unique_ptr<pqxx::connection> lock_conn_;  // open while hold_write_lock is in force
  std::unique_ptr<pqxx::work> lock_txn_;
  std::vector<std::string> triggers_;            // "trigger ON table"
  bool write_failure_ = false;                   // inject_write_failure is in force
};

}  // namespace ssp::harness
