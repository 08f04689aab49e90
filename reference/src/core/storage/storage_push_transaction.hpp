// A push transaction's rules, written once for every SQL backend (design
// notes storage.md §5.2, push.md §1.2–§2.2): the finished-transaction check,
// the served-table lookup, scan validation, payload decoding, the savepoint
// requirement of a rejection and the change-scope set. A backend supplies a
// PushSession, one open database transaction that only runs SQL.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ssp/storage/push_transaction.hpp"
#include "ssp/storage/schema.hpp"

namespace ssp::storage {

// One distinct sync_change_scopes entry of a commit.
struct ChangeScope {
  std::string table;
  std::string variable;
  std::string value;
};

// A scan the rules accepted: a known table, a non-empty filter whose every
// variable has at least one value (deduplicated), a limit in 1..1000.
struct CheckedScan {
  const CompiledTable* table = nullptr;
  ScopeMap scope_filter;
  std::optional<std::string> after_row_id;
  std::int64_t limit = 100;
};

// One database transaction on a connection of its own, opened by the backend
// (BEGIN IMMEDIATE on SQLite, BEGIN ISOLATION LEVEL READ COMMITTED on
// PostgreSQL). Destroying it rolls back whatever is still open. Failures are
// StorageError unless stated.
class PushSession {
 public:
  virtual ~PushSession() = default;

  // Takes the partition's push lock, then SAVEPOINT syncular_push_candidate.
  virtual void lock_partition(const std::string& partition) = 0;
  // ROLLBACK TO SAVEPOINT syncular_push_candidate, then RELEASE it. Writes
  // go unstaged from here.
  virtual void rollback_to_candidate() = 0;

  // PushTransaction::prefetch_rows, stage_writes and flush_writes, for a
  // session that holds the lock. A session may ignore them (these defaults):
  // SQLite's statements cost no round trip.
  virtual void prefetch_rows(const CompiledTable& /*table*/, const std::string& /*partition*/,
                             const std::vector<std::string>& /*row_ids*/) {}
  virtual void stage_writes() {}
  virtual void flush_writes() {}

  // The stored result text, unparsed.
  virtual std::optional<std::string> read_push_result(const std::string& partition,
                                                      const std::string& client_id,
                                                      const std::string& client_commit_id) = 0;
  // Insert-if-absent.
  virtual void insert_push_result(const std::string& partition, const std::string& client_id,
                                  const std::string& client_commit_id,
                                  const std::string& result_json) = 0;

  virtual std::optional<StoredRow> read_row(const CompiledTable& table,
                                            const std::string& partition,
                                            const std::string& row_id) = 0;
  virtual std::vector<StoredRow> scan_rows(const std::string& partition,
                                           const CheckedScan& scan) = 0;
  // The row with its projection `values` and its sync_row_scopes entries
  // replaced. A relational constraint violation of the row statement throws
  // StorageConstraintError(op_index) with nothing of this call written and
  // the transaction still usable.
  virtual void write_row(const CompiledTable& table, const std::string& partition,
                         const StoredRow& row, const Row& values, std::int64_t op_index) = 0;
  // The row, its sync_row_scopes and its sync_blob_refs entries.
  virtual void delete_row(const CompiledTable& table, const std::string& partition,
                          const std::string& row_id) = 0;

  // Increments the partition's counter row (creating it at 1) and returns it.
  virtual std::int64_t next_commit_seq(const std::string& partition) = 0;
  // The sync_commits row, the sync_changes rows (idx = position) and the
  // sync_change_scopes rows (insert-if-absent).
  virtual void write_commit(const std::string& partition, std::int64_t commit_seq,
                            const CommitEntry& entry, const std::vector<ChangeScope>& scopes) = 0;

  virtual void commit() = 0;
  // Never throws.
  virtual void rollback() noexcept = 0;
};

// The PushTransaction every SQL backend returns from begin().
class SqlPushTransaction final : public PushTransaction {
 public:
  // `served`: the schema the storage served at begin (null before any
  // ensure_schema); row operations on other tables throw UnknownTable.
  SqlPushTransaction(std::string partition, std::shared_ptr<const CompiledSchema> served,
                     std::unique_ptr<PushSession> session);
  ~SqlPushTransaction() override;

  const std::string& partition() const override { return partition_; }
  void lock_partition_for_push() override;
  std::optional<push::StoredPushResult> get_push_result(
      const std::string& client_id, const std::string& client_commit_id) override;
  void prefetch_rows(const std::string& table, const std::vector<std::string>& row_ids) override;
  void stage_writes() override;
  void flush_writes() override;
  std::optional<StoredRow> get_row(const std::string& table, const std::string& row_id) override;
  std::vector<StoredRow> scan_rows(const RowScan& scan) override;
  void upsert_row(const std::string& table, const StoredRow& row, std::int64_t op_index) override;
  void upsert_decoded_row(const std::string& table, const StoredRow& row, const Row& values,
                          std::int64_t op_index) override;
  void delete_row(const std::string& table, const std::string& row_id) override;
  std::int64_t append_commit(const CommitEntry& entry) override;
  void put_push_result(const std::string& client_id, const std::string& client_commit_id,
                       const push::StoredPushResult& result) override;
  void commit_rejected_push_result(const std::string& client_id,
                                   const std::string& client_commit_id,
                                   const push::StoredPushResult& result) override;
  void commit() override;
  void rollback() noexcept override;

 private:
  void require_open() const;
  const CompiledTable& served_table(const std::string& table) const;

  std::string partition_;
  std::shared_ptr<const CompiledSchema> served_;
  std::unique_ptr<PushSession> session_;
  bool finished_ = false;
  bool locked_ = false;
};

// The rules of a scan (push_transaction.hpp RowScan), shared with anything
// else that scans: throws UnknownTable through `table`, StorageQueryError
// (sync.storage.scan_requires_scope) for an empty filter, InvalidArgument for
// a limit outside 1..1000. Nothing when a variable has no values (the scan
// matches nothing).
std::optional<CheckedScan> check_scan(const RowScan& scan, const CompiledTable& table);

// The distinct (table, variable, value) entries of a commit's changes, in
// order.
std::vector<ChangeScope> change_scopes(const CommitEntry& entry);

// A stored push result read back: push::IdempotencyCacheMiss when unreadable.
std::optional<push::StoredPushResult> stored_push_result(const std::optional<std::string>& text);

}  // namespace ssp::storage
