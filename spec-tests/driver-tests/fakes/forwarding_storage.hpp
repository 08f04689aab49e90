// Decorators of a server storage and its push transactions that forward
// every call: a fake push driver derives from them and changes the one call
// its fault is about (push_fault_driver.cpp).
#pragma once

#include <memory>

#include "ssp/storage/push_transaction.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::driver {

class ForwardingPushTransaction : public storage::PushTransaction {
 public:
  explicit ForwardingPushTransaction(std::unique_ptr<storage::PushTransaction> inner)
      : inner_(std::move(inner)) {}

  const std::string& partition() const override { return inner_->partition(); }
  void lock_partition_for_push() override { inner_->lock_partition_for_push(); }
  std::optional<push::StoredPushResult> get_push_result(
      const std::string& client_id, const std::string& client_commit_id) override {
    return inner_->get_push_result(client_id, client_commit_id);
  }
  void prefetch_rows(const std::string& table, const std::vector<std::string>& row_ids) override {
    inner_->prefetch_rows(table, row_ids);
  }
  void stage_writes() override { inner_->stage_writes(); }
  void flush_writes() override { inner_->flush_writes(); }
  std::optional<storage::StoredRow> get_row(const std::string& table,
                                            const std::string& row_id) override {
    return inner_->get_row(table, row_id);
  }
  std::vector<storage::StoredRow> scan_rows(const storage::RowScan& scan) override {
    return inner_->scan_rows(scan);
  }
  void upsert_row(const std::string& table, const storage::StoredRow& row,
                  std::int64_t op_index) override {
    inner_->upsert_row(table, row, op_index);
  }
  void delete_row(const std::string& table, const std::string& row_id) override {
    inner_->delete_row(table, row_id);
  }
  std::int64_t append_commit(const storage::CommitEntry& entry) override {
    return inner_->append_commit(entry);
  }
  void put_push_result(const std::string& client_id, const std::string& client_commit_id,
                       const push::StoredPushResult& result) override {
    inner_->put_push_result(client_id, client_commit_id, result);
  }
  void commit_rejected_push_result(const std::string& client_id,
                                   const std::string& client_commit_id,
                                   const push::StoredPushResult& result) override {
    inner_->commit_rejected_push_result(client_id, client_commit_id, result);
  }
  void commit() override { inner_->commit(); }
  void rollback() noexcept override { inner_->rollback(); }

 protected:
  storage::PushTransaction& inner() { return *inner_; }

 private:
  std::unique_ptr<storage::PushTransaction> inner_;
};

class ForwardingServerStorage : public storage::ServerStorage {
 public:
  explicit ForwardingServerStorage(storage::ServerStorage& inner) : inner_(inner) {}

  storage::SchemaReport ensure_schema(const storage::CompiledSchema& schema) override {
    return inner_.ensure_schema(schema);
  }
  storage::SchemaReport preview_schema(const storage::CompiledSchema& schema) override {
    return inner_.preview_schema(schema);
  }
  std::optional<storage::StoredRow> get_row(const std::string& partition, const std::string& table,
                                            const std::string& row_id) override {
    return inner_.get_row(partition, table, row_id);
  }
  void upsert_row(const std::string& partition, const std::string& table,
                  const storage::StoredRow& row) override {
    inner_.upsert_row(partition, table, row);
  }
  std::optional<storage::Row> read_projection(const std::string& partition,
                                              const std::string& table,
                                              const std::string& row_id) override {
    return inner_.read_projection(partition, table, row_id);
  }
  std::unique_ptr<storage::PushTransaction> begin(const std::string& partition) override {
    return inner_.begin(partition);
  }
  std::optional<push::StoredPushResult> get_push_result(
      const std::string& partition, const std::string& client_id,
      const std::string& client_commit_id) override {
    return inner_.get_push_result(partition, client_id, client_commit_id);
  }
  std::int64_t get_max_commit_seq(const std::string& partition) override {
    return inner_.get_max_commit_seq(partition);
  }
  std::vector<storage::Commit> read_commit_window(const std::string& partition,
                                                  std::int64_t after_seq,
                                                  std::int64_t limit) override {
    return inner_.read_commit_window(partition, after_seq, limit);
  }
  std::vector<storage::WindowCommit> read_table_window(
      const std::string& partition, const storage::TableWindowQuery& query) override {
    return inner_.read_table_window(partition, query);
  }
  storage::PartitionEntry touch_partition(const std::string& partition,
                                          std::int64_t authenticated_at_ms,
                                          const std::string& initial_log_epoch) override {
    return inner_.touch_partition(partition, authenticated_at_ms, initial_log_epoch);
  }
  storage::PartitionEntry rotate_partition_log_epoch(const std::string& partition,
                                                     const std::string& log_epoch,
                                                     std::int64_t at_ms) override {
    return inner_.rotate_partition_log_epoch(partition, log_epoch, at_ms);
  }
  std::optional<std::string> get_partition_log_epoch(const std::string& partition) override {
    return inner_.get_partition_log_epoch(partition);
  }
  std::vector<storage::PartitionEntry> list_partition_registry() override {
    return inner_.list_partition_registry();
  }
  storage::AuthoritativeRead query_authoritative(
      const std::string& partition, const std::string& table,
      const std::vector<std::string>& row_ids) override {
    return inner_.query_authoritative(partition, table, row_ids);
  }

 protected:
  storage::ServerStorage& inner() { return inner_; }

 private:
  storage::ServerStorage& inner_;
};

}  // namespace ssp::driver
