#include "storage_server_base.hpp"

#include "ssp/errors/errors.hpp"
#include "ssp/storage/layouts.hpp"
#include "ssp/storage/row_codec.hpp"
#include "ssp/storage/schema_startup.hpp"
#include "ssp/storage/storage_errors.hpp"

namespace ssp::storage {

void ServerStorageBase::hook(EnsureHookPoint point) const {
  if (options_.ensure_hook) options_.ensure_hook(point);
}

SchemaReport ServerStorageBase::run_startup(const CompiledSchema& schema, bool commit) {
  StartupOptions startup;
  startup.same_version_checks = options_.compatibility == Compatibility::v0_22;
  hook(EnsureHookPoint::before_lock);
  std::unique_ptr<SchemaSession> session = begin_schema_session();
  hook(EnsureHookPoint::after_lock);
  SchemaReport report = run_schema_startup(*session, schema, startup);
  hook(EnsureHookPoint::before_commit);
  if (commit) session->commit();
  return report;  // without commit, the session rolls back as it goes
}

SchemaReport ServerStorageBase::ensure_schema(const CompiledSchema& schema) {
  std::lock_guard lock(write_mutex_);
  std::string layouts = layouts_json(schema);
  const std::shared_ptr<const CompiledSchema> current = served();
  if (current && current->version == schema.version && served_layouts_ == layouts) {
    SchemaReport report;
    report.action = SchemaReport::Action::memoized;
    report.configured_version = schema.version;
    report.stored_version = schema.version;
    return report;
  }
  SchemaReport report = run_startup(schema, true);
  {
    std::lock_guard served_lock(served_mutex_);
    served_ = std::make_shared<const CompiledSchema>(schema);
  }
  served_layouts_ = std::move(layouts);
  return report;
}

SchemaReport ServerStorageBase::preview_schema(const CompiledSchema& schema) {
  std::lock_guard lock(write_mutex_);
  return run_startup(schema, false);
}

std::shared_ptr<const CompiledSchema> ServerStorageBase::served() const {
  std::lock_guard lock(served_mutex_);
  return served_;
}

const CompiledTable& ServerStorageBase::served_table(
    const std::shared_ptr<const CompiledSchema>& served, const std::string& table) const {
  const CompiledTable* found = served ? served->find(table) : nullptr;
  if (found == nullptr) throw UnknownTable(table);
  return *found;
}

std::optional<StoredRow> ServerStorageBase::get_row(const std::string& partition,
                                                    const std::string& table,
                                                    const std::string& row_id) {
  const auto schema = served();
  const CompiledTable& served = served_table(schema, table);
  std::lock_guard lock(read_mutex_);
  return read_row(served, partition, row_id);
}

void ServerStorageBase::upsert_row(const std::string& partition, const std::string& table,
                                   const StoredRow& row) {
  const auto schema = served();
  const CompiledTable& served = served_table(schema, table);
  const Row values = decode_row(served.layout(), row.payload);
  std::lock_guard lock(write_mutex_);
  write_row(served, partition, row, values);
}

std::optional<Row> ServerStorageBase::read_projection(const std::string& partition,
                                                      const std::string& table,
                                                      const std::string& row_id) {
  const auto schema = served();
  const CompiledTable& served = served_table(schema, table);
  if (!served.materialized) {
    throw InvalidArgument("table \"" + table + "\" is not materialized: it has no projection");
  }
  std::lock_guard lock(read_mutex_);
  return read_projection_row(served, partition, row_id);
}

std::unique_ptr<PushTransaction> ServerStorageBase::begin(const std::string& partition) {
  // No storage mutex: the session is a connection of its own, and BEGIN
  // IMMEDIATE may wait for another push (SQLite) without holding up reads.
  return std::make_unique<SqlPushTransaction>(partition, served(), open_push_session());
}

std::optional<push::StoredPushResult> ServerStorageBase::get_push_result(
    const std::string& partition, const std::string& client_id,
    const std::string& client_commit_id) {
  std::optional<std::string> text;
  {
    std::lock_guard lock(read_mutex_);
    text = read_push_result(partition, client_id, client_commit_id);
  }
  return stored_push_result(text);
}

std::int64_t ServerStorageBase::get_max_commit_seq(const std::string& partition) {
  std::lock_guard lock(read_mutex_);
  return read_max_commit_seq(partition);
}

std::vector<Commit> ServerStorageBase::read_commit_window(const std::string& partition,
                                                          std::int64_t after_seq,
                                                          std::int64_t limit) {
  if (limit < 1) {
    throw InvalidArgument("read_commit_window limit " + std::to_string(limit) + " is below 1");
  }
  std::lock_guard lock(read_mutex_);
  return read_commits(partition, after_seq, limit);
}

std::vector<WindowCommit> ServerStorageBase::read_table_window(const std::string& partition,
                                                              const TableWindowQuery& query) {
  const std::optional<WindowIndexKey> key = window_index_key(query);
  if (!key) return {};
  std::lock_guard lock(read_mutex_);
  return read_window_pages(query, [&](std::int64_t after_seq, std::int64_t batch) {
    return read_window_candidates(partition, query.table, *key, after_seq, query.through_seq,
                                  batch);
  });
}

PartitionEntry ServerStorageBase::touch_partition(const std::string& partition,
                                                  std::int64_t authenticated_at_ms,
                                                  const std::string& initial_log_epoch) {
  if (initial_log_epoch.empty()) throw InvalidArgument("initial log epoch must be non-empty");
  std::lock_guard lock(write_mutex_);
  return write_registry(PartitionEntry{partition, initial_log_epoch, false, authenticated_at_ms},
                        RegistryWrite::touch);
}

PartitionEntry ServerStorageBase::rotate_partition_log_epoch(const std::string& partition,
                                                             const std::string& log_epoch,
                                                             std::int64_t at_ms) {
  if (log_epoch.empty()) throw InvalidArgument("log epoch must be non-empty");
  std::lock_guard lock(write_mutex_);
  return write_registry(PartitionEntry{partition, log_epoch, true, at_ms},
                        RegistryWrite::rotation);
}

std::optional<std::string> ServerStorageBase::get_partition_log_epoch(
    const std::string& partition) {
  std::lock_guard lock(read_mutex_);
  return read_partition_epoch(partition);
}

std::vector<PartitionEntry> ServerStorageBase::list_partition_registry() {
  std::lock_guard lock(read_mutex_);
  return read_partition_registry();
}

AuthoritativeRead ServerStorageBase::query_authoritative(const std::string& partition,
                                                         const std::string& table,
                                                         const std::vector<std::string>& row_ids) {
  const auto schema = served();
  const CompiledTable& served = served_table(schema, table);
  std::lock_guard lock(read_mutex_);
  return read_authoritative(served, partition, row_ids);
}

}  // namespace ssp::storage
