// What every SQL ServerStorage shares, written once: the memo, the served
// table map, the unknown-table refusal, the hook points, payload validation
// before a write, and the push transaction's rules (storage_push_transaction).
// A backend supplies the sessions and the SQL.
//
// Connections: storage-level writes (ensure_schema, preview_schema,
// upsert_row) run one at a time on the backend's writer connection,
// storage-level reads one at a time on its reader connection, and every push
// transaction on a connection of its own. So a read never waits behind a
// storage-level write that waits for a push's lock, and nothing a storage-level
// call does joins an open push transaction (design notes push.md Q5, R15).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ssp/storage/schema_startup.hpp"
#include "ssp/storage/server_storage.hpp"
#include "partition_registry_writes.hpp"
#include "storage_push_transaction.hpp"
#include "table_window_pages.hpp"

namespace ssp::storage {

class ServerStorageBase : public ServerStorage {
 public:
  explicit ServerStorageBase(ServerStorageOptions options) : options_(std::move(options)) {}

  SchemaReport ensure_schema(const CompiledSchema& schema) final;
  SchemaReport preview_schema(const CompiledSchema& schema) final;
  std::optional<StoredRow> get_row(const std::string& partition, const std::string& table,
                                   const std::string& row_id) final;
  void upsert_row(const std::string& partition, const std::string& table,
                  const StoredRow& row) final;
  std::optional<Row> read_projection(const std::string& partition, const std::string& table,
                                     const std::string& row_id) final;
  std::unique_ptr<PushTransaction> begin(const std::string& partition) final;
  std::optional<push::StoredPushResult> get_push_result(
      const std::string& partition, const std::string& client_id,
      const std::string& client_commit_id) final;
  std::int64_t get_max_commit_seq(const std::string& partition) final;
  std::vector<Commit> read_commit_window(const std::string& partition, std::int64_t after_seq,
                                         std::int64_t limit) final;
  std::vector<WindowCommit> read_table_window(const std::string& partition,
                                              const TableWindowQuery& query) final;
  PartitionEntry touch_partition(const std::string& partition, std::int64_t authenticated_at_ms,
                                 const std::string& initial_log_epoch) final;
  PartitionEntry rotate_partition_log_epoch(const std::string& partition,
                                            const std::string& log_epoch,
                                            std::int64_t at_ms) final;
  std::optional<std::string> get_partition_log_epoch(const std::string& partition) final;
  std::vector<PartitionEntry> list_partition_registry() final;
  AuthoritativeRead query_authoritative(const std::string& partition, const std::string& table,
                                        const std::vector<std::string>& row_ids) final;

 protected:
  const ServerStorageOptions& options() const { return options_; }

  // Writer connection: opens a transaction holding the migration lock (see
  // SchemaSession).
  virtual std::unique_ptr<SchemaSession> begin_schema_session() = 0;
  // Writer connection, one transaction: the row with its projection
  // (`values`, the decoded payload) and its sync_row_scopes entries replaced.
  virtual void write_row(const CompiledTable& table, const std::string& partition,
                         const StoredRow& row, const Row& values) = 0;

  // Reader connection, committed state only.
  virtual std::optional<StoredRow> read_row(const CompiledTable& table,
                                            const std::string& partition,
                                            const std::string& row_id) = 0;
  virtual std::optional<Row> read_projection_row(const CompiledTable& table,
                                                 const std::string& partition,
                                                 const std::string& row_id) = 0;
  virtual std::optional<std::string> read_push_result(const std::string& partition,
                                                      const std::string& client_id,
                                                      const std::string& client_commit_id) = 0;
  virtual std::int64_t read_max_commit_seq(const std::string& partition) = 0;
  // Commits above `after_seq`, oldest first, at most `limit`, with their
  // changes in idx order, read from one snapshot.
  virtual std::vector<Commit> read_commits(const std::string& partition, std::int64_t after_seq,
                                           std::int64_t limit) = 0;
  // One page of pull's read: the commits with after_seq < seq <= through_seq
  // that `key` selects for `table` (sync_change_scopes), the first `batch` in
  // seq order, each with its metadata and every change of `table` in idx
  // order, from one snapshot.
  virtual std::vector<WindowCandidate> read_window_candidates(
      const std::string& partition, const std::string& table, const WindowIndexKey& key,
      std::int64_t after_seq, std::int64_t through_seq, std::int64_t batch) = 0;
  // The registry's `write` of `entry` on the writer connection, in one
  // transaction (partition_registry_writes.hpp): the partition's sync_clients
  // rows deleted first for a rotation, then `entry` inserted or
  // registry_conflict_update(write) applied; answers the stored entry. The
  // epoch is checked.
  virtual PartitionEntry write_registry(const PartitionEntry& entry, RegistryWrite write) = 0;
  // Reader connection: one partition's epoch, every entry by partition; the
  // core tables may not exist yet (nothing).
  virtual std::optional<std::string> read_partition_epoch(const std::string& partition) = 0;
  virtual std::vector<PartitionEntry> read_partition_registry() = 0;
  // The rows of `row_ids` that exist, in that order, and the partition's max
  // commit seq, read from one snapshot.
  virtual AuthoritativeRead read_authoritative(const CompiledTable& table,
                                               const std::string& partition,
                                               const std::vector<std::string>& row_ids) = 0;

  // A new connection with its transaction begun (no lock taken yet).
  virtual std::unique_ptr<PushSession> open_push_session() = 0;

 private:
  SchemaReport run_startup(const CompiledSchema& schema, bool commit);
  std::shared_ptr<const CompiledSchema> served() const;
  const CompiledTable& served_table(const std::shared_ptr<const CompiledSchema>& served,
                                    const std::string& table) const;
  void hook(EnsureHookPoint point) const;

  std::mutex write_mutex_;  // the writer connection: one call at a time
  std::mutex read_mutex_;   // the reader connection: one call at a time
  ServerStorageOptions options_;
  mutable std::mutex served_mutex_;
  std::shared_ptr<const CompiledSchema> served_;  // the schema of the last success
  std::string served_layouts_;  // its layouts_json, the memo key with its version (write_mutex_)
};

}  // namespace ssp::storage
