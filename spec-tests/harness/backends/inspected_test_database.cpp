#include "harness/backends/inspected_test_database.hpp"

#include "harness/backends/inspection_failure.hpp"

namespace ssp::harness {
namespace {

class InspectedTestDatabase final : public TestDatabase {
 public:
  explicit InspectedTestDatabase(std::unique_ptr<TestDatabase> inner) : inner_(std::move(inner)) {}

  const DatabaseLocation& location() const override { return inner_->location(); }
  void exec(const std::string& sql) override {
    inspect(sql, [&] { inner_->exec(sql); });
  }
  std::vector<std::string> query_column(const std::string& sql) override {
    return inspect(sql, [&] { return inner_->query_column(sql); });
  }
  std::string dump_segment_tables() override {
    return inspect("dump of the segment tables", [&] { return inner_->dump_segment_tables(); });
  }
  std::string dump_all_tables() override {
    return inspect("dump of every table", [&] { return inner_->dump_all_tables(); });
  }
  std::vector<std::string> column_names(const std::string& table) override {
    return inspect("columns of " + table, [&] { return inner_->column_names(table); });
  }
  void drop_column(const std::string& table, const std::string& column) override {
    inspect("drop of " + table + "." + column, [&] { inner_->drop_column(table, column); });
  }
  std::vector<std::string> index_names(const std::string& table) override {
    return inspect("indexes of " + table, [&] { return inner_->index_names(table); });
  }
  void inject_insert_failure(const std::string& table, int after_rows) override {
    inspect("a failure injected into " + table,
            [&] { inner_->inject_insert_failure(table, after_rows); });
  }
  void inject_write_failure(int after_writes) override {
    inspect("a write failure injected", [&] { inner_->inject_write_failure(after_writes); });
  }
  bool inject_commit_failure() override {
    return inspect("a commit failure injected", [&] { return inner_->inject_commit_failure(); });
  }
  void clear_injected_failures() override {
    inspect("clearing injected failures", [&] { inner_->clear_injected_failures(); });
  }
  void hold_write_lock() override {
    inspect("holding the write lock", [&] { inner_->hold_write_lock(); });
  }
  void release_write_lock() override {
    inspect("releasing the write lock", [&] { inner_->release_write_lock(); });
  }
  bool shows_lock_waits(int waiters) override {
    bool shown = false;
    inspect("looking for connections waiting for a lock",
            [&] { shown = inner_->shows_lock_waits(waiters); });
    return shown;
  }
  bool shows_sessions_waiting(const std::vector<std::string>& application_names) override {
    bool shown = false;
    inspect("looking for the sessions waiting for a lock",
            [&] { shown = inner_->shows_sessions_waiting(application_names); });
    return shown;
  }
  LockWaitEvidence lock_wait_evidence() const override { return inner_->lock_wait_evidence(); }

 private:
  // Runs `step`; a failure it throws is read by raise_inspection_failure
  // (`what`: the statement or the step) and, if that leaves it as it is,
  // rethrown unchanged.
  template <class Step>
  auto inspect(const std::string& what, Step&& step) -> decltype(step()) {
    try {
      return step();
    } catch (const std::exception& failure) {
      raise_inspection_failure(failure.what(), what);
      throw;
    }
  }

  std::unique_ptr<TestDatabase> inner_;
};

}  // namespace

std::unique_ptr<TestDatabase> inspected(std::unique_ptr<TestDatabase> database) {
  if (!database) return database;
  return std::make_unique<InspectedTestDatabase>(std::move(database));
}

}  // namespace ssp::harness
