// A push transaction (design notes storage.md §5.2, push.md §1–§2): the
// primitive the push pipeline and trusted commands write through. begin()
// takes no lock; lock_partition_for_push() is what serializes pushes to a
// partition and opens the candidate savepoint a rejection rolls back to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ssp/scopes/scope_map.hpp"
#include "ssp/storage/commit_log.hpp"
#include "ssp/storage/push_result.hpp"
#include "ssp/storage/stored_row.hpp"

namespace ssp::storage {

// An application row write violated a relational constraint (a secondary
// unique index, …). The database text is never carried: the pipeline answers
// sync.constraint_violation at `op_index`.
class StorageConstraintError : public SspError {
 public:
  explicit StorageConstraintError(std::int64_t op_index);
  std::int64_t op_index() const { return op_index_; }

 private:
  std::int64_t op_index_;
};

// A read refused for its shape, with upstream's StorageQueryError code, e.g.
// sync.storage.scan_requires_scope for a scan without a scope filter.
class StorageQueryError : public InvalidArgument {
 public:
  StorageQueryError(std::string code, const std::string& message);
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

// A scope-filtered scan of current rows (a commit validator's reader).
struct RowScan {
  std::string table;
  ScopeMap scope_filter;  // non-empty; rows must match every variable
  std::optional<std::string> after_row_id;
  std::int64_t limit = 100;  // 1..1000
};

// Bound to one partition. Every method but rollback throws InvalidArgument
// ("transaction already finished") once the transaction committed or rolled
// back. Destroying an unfinished transaction rolls it back; it never leaves
// the storage wedged. One thread uses a transaction at a time.
class PushTransaction {
 public:
  virtual ~PushTransaction() = default;

  virtual const std::string& partition() const = 0;

  // Waits (up to lock_wait_ms, then StorageError) until no other push to the
  // partition holds the lock, then holds it to commit or rollback, and opens
  // the candidate savepoint. Called once, before the first read it depends on.
  virtual void lock_partition_for_push() = 0;

  // The locked idempotency recheck, on this transaction's connection.
  // Throws push::IdempotencyCacheMiss for an unreadable stored result.
  virtual std::optional<push::StoredPushResult> get_push_result(
      const std::string& client_id, const std::string& client_commit_id) = 0;

  // A hint that the rows `row_ids` of `table` are about to be read: they
  // may be read ahead, together with the next statement (on PostgreSQL, the
  // idempotency recheck), and get_row then answers them from that read, kept
  // current by the partition lock. Changes no answer. Ignored without the
  // lock and for a table the storage does not serve.
  virtual void prefetch_rows(const std::string& /*table*/,
                             const std::vector<std::string>& /*row_ids*/) {}

  // Opts into staged writes, under the partition lock (else InvalidArgument):
  // from here the storage may hold upsert_row and delete_row back and send
  // them together: at append_commit, commit or flush_writes, or before a
  // scan_rows that must see them. Reads still see them. A constraint
  // violation among them then throws StorageConstraintError from that later
  // call, at the first operation that violates in call order, with every
  // write since the lock rolled back and the transaction usable (the lock
  // stays). Without this call, a violation throws from its own upsert_row.
  // A storage may write at once regardless.
  virtual void stage_writes() {}
  // Sends the staged writes now; a violation among them throws here, as
  // stage_writes says. A no-op when nothing is staged.
  virtual void flush_writes() {}

  // Reads see this transaction's own staged writes. Throw UnknownTable.
  virtual std::optional<StoredRow> get_row(const std::string& table,
                                           const std::string& row_id) = 0;
  // Rows matching every variable of the filter, in ascending row id after
  // `after_row_id`, at most `limit`; a variable with no values matches
  // nothing. Throws UnknownTable, InvalidArgument for a limit outside
  // 1..1000, StorageQueryError(sync.storage.scan_requires_scope) for an empty
  // filter.
  virtual std::vector<StoredRow> scan_rows(const RowScan& scan) = 0;

  // Writes the row, its projection and its scope-index entries. Throws
  // UnknownTable, RowDecodeError, or StorageConstraintError(op_index).
  virtual void upsert_row(const std::string& table, const StoredRow& row,
                          std::int64_t op_index) = 0;
  // The same write from a caller that holds `values`, row.payload decoded under
  // the table's layout (the push pipeline decodes every payload it writes): a
  // storage that needs the values (a projection) may take them instead of
  // decoding the payload again. The caller guarantees they are the payload's.
  // The default ignores them.
  virtual void upsert_decoded_row(const std::string& table, const StoredRow& row,
                                  const Row& /*values*/, std::int64_t op_index) {
    upsert_row(table, row, op_index);
  }
  // Removes the row and its scope-index entries; absent is a no-op.
  virtual void delete_row(const std::string& table, const std::string& row_id) = 0;

  // Allocates the partition's next commit seq (dense from 1; a rolled-back
  // allocation is reused) and writes the commit, its changes and change scopes.
  virtual std::int64_t append_commit(const CommitEntry& entry) = 0;

  // Insert-if-absent: the first result stored under the key wins, silently.
  virtual void put_push_result(const std::string& client_id, const std::string& client_commit_id,
                               const push::StoredPushResult& result) = 0;

  // Rolls back to the candidate savepoint (the lock stays held), stores
  // `result` insert-if-absent and commits. Throws InvalidArgument ("push
  // rejection requires its apply savepoint") unless the lock was taken.
  virtual void commit_rejected_push_result(const std::string& client_id,
                                           const std::string& client_commit_id,
                                           const push::StoredPushResult& result) = 0;

  // On a failed commit the transaction is rolled back and the error thrown.
  virtual void commit() = 0;
  // A no-op once finished. Never throws.
  virtual void rollback() noexcept = 0;
};

}  // namespace ssp::storage
