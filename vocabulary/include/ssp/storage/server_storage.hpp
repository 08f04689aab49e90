// The server storage as far as the reference goes: ensure_schema (marker,
// stored layouts, the 0.22 same-version refusal, the migration subset), single
// row reads and writes, the push path's transactions and commit log, and
// pull's scope-filtered read of it, and the partition registry. Reactions,
// pruning and client records are not here yet.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ssp/storage/commit_log.hpp"
#include "ssp/storage/partition_registry.hpp"
#include "ssp/storage/push_result.hpp"
#include "ssp/storage/push_transaction.hpp"
#include "ssp/storage/row.hpp"
#include "ssp/storage/schema.hpp"
#include "ssp/storage/schema_report.hpp"
#include "ssp/storage/stored_row.hpp"
#include "ssp/storage/table_window.hpp"

namespace ssp::storage {

// Named points inside ensure_schema, in the order it passes them. Tests park a
// call at one with a latch to order two concurrent startups.
enum class EnsureHookPoint {
  before_lock,    // memo missed; no transaction yet
  after_lock,     // transaction open, migration lock held, nothing read
  before_commit,  // every statement ran, the transaction is still open
};
std::string_view ensure_hook_point_name(EnsureHookPoint point);

// Which release's startup checks to apply at the same version.
enum class Compatibility {
  v0_22,  // compare stored layouts, then physical columns (the default)
  v0_21,  // trust the version number alone (regression guard, B-6)
};

struct ServerStorageOptions {
  Compatibility compatibility = Compatibility::v0_22;
  // How long startup or a write waits for a lock another connection holds
  // before throwing StorageError (SQLite busy_timeout, PostgreSQL lock_timeout).
  std::int64_t lock_wait_ms = 30'000;
  // Called at each EnsureHookPoint on the calling thread. Tests only.
  std::function<void(EnsureHookPoint)> ensure_hook;
};

// What query_authoritative answers: committed rows and the partition's
// highest commit seq, read from one snapshot.
struct AuthoritativeRead {
  std::vector<StoredRow> rows;
  std::int64_t max_commit_seq = 0;
  friend bool operator==(const AuthoritativeRead&, const AuthoritativeRead&) = default;
};

class ServerStorage {
 public:
  virtual ~ServerStorage() = default;

  // Brings the database to `schema` or refuses to serve it, in one
  // transaction under the migration lock (storage.md §2.2–§3):
  //  - marker newer than schema.version: SchemaRefusal(stored_newer);
  //  - same version: stored layouts compared (layouts_disagree,
  //    layouts_unreadable), then every table's six internal columns and, for
  //    materialized tables, its projection columns (physical_mismatch);
  //    nothing is written;
  //  - marker absent or older: the migration subset (retire, CREATE / ADD
  //    COLUMN, index rebuild, append-only assertion, payload rewrite) and the
  //    marker upsert last; refusals not_append_only, layouts_unreadable,
  //    row_undecodable.
  // On any throw the database is exactly as before and this storage serves
  // the tables of its last success, if any. Memoized: a repeat call with the
  // same version and layouts as the last success returns at once without
  // reading the database (DECISION Q5: keyed on the layouts, not the version
  // alone). Thread-safe.
  virtual SchemaReport ensure_schema(const CompiledSchema& schema) = 0;

  // Runs the same sequence and rolls it back: what ensure_schema would do or
  // which refusal it would raise, with the database unchanged afterwards.
  // Never memoized, never changes what this storage serves.
  virtual SchemaReport preview_schema(const CompiledSchema& schema) = 0;

  // The row `row_id` of `table` in `partition`, or nothing. Throws UnknownTable
  // (`unknown table "<t>" — ensureSchema(schema) must run before row
  // operations`) unless ensure_schema succeeded with a schema naming `table`.
  virtual std::optional<StoredRow> get_row(const std::string& partition, const std::string& table,
                                           const std::string& row_id) = 0;

  // Inserts or replaces the row, its projection (decoded from the payload, in
  // the same statement) and its sync_row_scopes entries, in one transaction.
  // Throws UnknownTable as get_row, RowDecodeError when the payload does not
  // decode under the table's layout (nothing written).
  virtual void upsert_row(const std::string& partition, const std::string& table,
                          const StoredRow& row) = 0;

  // Inspection for tests and tools: the projection columns of a materialized
  // table's row as the database holds them (json as the database renders it;
  // on PostgreSQL a json value JSONB cannot hold is NULL), or nothing when the
  // row is absent. Throws UnknownTable as get_row, InvalidArgument for a
  // table that is not materialized.
  virtual std::optional<Row> read_projection(const std::string& partition, const std::string& table,
                                             const std::string& row_id) = 0;

  // Opens a push transaction on `partition`, on a connection of its own. A raw
  // primitive: it takes no partition lock (0.22; design notes push.md §3.2);
  // trusted code calls lock_partition_for_push before its first read.
  virtual std::unique_ptr<PushTransaction> begin(const std::string& partition) = 0;

  // Storage-level reads see committed state only: never a push transaction's
  // staged rows, whatever transaction is open (design notes push.md Q5).
  // Throws push::IdempotencyCacheMiss for an unreadable stored result.
  virtual std::optional<push::StoredPushResult> get_push_result(
      const std::string& partition, const std::string& client_id,
      const std::string& client_commit_id) = 0;
  // The partition's highest allocated commit seq, or 0.
  virtual std::int64_t get_max_commit_seq(const std::string& partition) = 0;
  // The commits with a seq above `after_seq`, oldest first, at most `limit`
  // (≥ 1), each with all its changes in idx order.
  virtual std::vector<Commit> read_commit_window(const std::string& partition,
                                                 std::int64_t after_seq, std::int64_t limit) = 0;

  // Pull's read (§4.5; upstream's readCommitWindow): the commits of
  // `partition` with query.after_seq < seq <= query.through_seq that hold a
  // change of query.table whose stored scopes match query.scope_filter,
  // oldest first, each with those changes alone in idx order; a commit with
  // none is left out. Candidates come from the change-scope index, never a
  // scan of the log. Stops after the commit that brings the matching changes
  // to query.limit_changes or more. An empty filter, or a variable with no
  // values, matches nothing. Committed state only. Throws InvalidArgument
  // for a limit below 1.
  virtual std::vector<WindowCommit> read_table_window(const std::string& partition,
                                                     const TableWindowQuery& query) = 0;

  // The partition registry (§2.1). Writes need the core tables, which
  // ensure_schema makes (StorageError before); reads answer nothing before.
  //
  // Authentication names `partition` at `authenticated_at_ms`: registers it
  // with `initial_log_epoch`, epoch not required, or, when it is registered,
  // refreshes its timestamp alone (its epoch is never replaced). Answers the
  // stored entry. InvalidArgument ("initial log epoch must be non-empty").
  virtual PartitionEntry touch_partition(const std::string& partition,
                                         std::int64_t authenticated_at_ms,
                                         const std::string& initial_log_epoch) = 0;
  // The restore rule: in one transaction, `log_epoch` becomes the
  // partition's epoch, required, at `at_ms` (registered if it was not), and
  // the partition's client records are deleted; its commit log, stored
  // results and horizon are left. Answers the stored entry.
  // InvalidArgument ("log epoch must be non-empty").
  virtual PartitionEntry rotate_partition_log_epoch(const std::string& partition,
                                                    const std::string& log_epoch,
                                                    std::int64_t at_ms) = 0;
  // The partition's epoch, or nothing when it is not registered; refreshes
  // nothing.
  virtual std::optional<std::string> get_partition_log_epoch(const std::string& partition) = 0;
  // Every entry, ordered by partition.
  virtual std::vector<PartitionEntry> list_partition_registry() = 0;

  // Trusted code's read of committed rows (upstream's queryAuthoritative,
  // design notes push.md §4.3, by row id rather than by SQL: docs/decisions.md):
  // the rows `row_ids` of `table` that exist in `partition`, in the order
  // asked, and the partition's max commit seq, from one snapshot. It runs on
  // a connection no push transaction uses, so it never waits for a push: a
  // validator calling it from inside its own push gets an answer at once,
  // and that answer is the state before the push, never its staged rows
  // (DECISION Q3). Candidate state is the CommitReader's. Throws UnknownTable
  // as get_row.
  virtual AuthoritativeRead query_authoritative(const std::string& partition,
                                                const std::string& table,
                                                const std::vector<std::string>& row_ids) = 0;
};

}  // namespace ssp::storage
