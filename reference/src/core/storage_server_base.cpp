#include "storage_server_base.hpp"

#include "ssp/errors.hpp"
#include "ssp/storage/layouts.hpp"
#include "ssp/storage/storage_errors.hpp"

namespace ssp::storage {

std::string_view ensure_hook_point_name(EnsureHookPoint point) {
  switch (point) {
    case EnsureHookPoint::before_lock:
      return "before_lock";
    case EnsureHookPoint::after_lock:
      return "after_lock";
    case EnsureHookPoint::before_commit:
      return "before_commit";
  }
  return "unknown";
}

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
  std::lock_guard lock(mutex_);
  std::string layouts = layouts_json(schema);
  if (served_ && served_->version == schema.version && served_layouts_ == layouts) {
    SchemaReport report;
    report.action = SchemaReport::Action::memoized;
    report.configured_version = schema.version;
    report.stored_version = schema.version;
    return report;
  }
  SchemaReport report = run_startup(schema, true);
  served_ = schema;
  served_layouts_ = std::move(layouts);
  return report;
}

SchemaReport ServerStorageBase::preview_schema(const CompiledSchema& schema) {
  std::lock_guard lock(mutex_);
  return run_startup(schema, false);
}

const CompiledTable& ServerStorageBase::served_table(const std::string& table) const {
  const CompiledTable* found = served_ ? served_->find(table) : nullptr;
  if (found == nullptr) throw UnknownTable(table);
  return *found;
}

std::optional<StoredRow> ServerStorageBase::get_row(const std::string& partition,
                                                    const std::string& table,
                                                    const std::string& row_id) {
  std::lock_guard lock(mutex_);
  return read_row(served_table(table), partition, row_id);
}

void ServerStorageBase::upsert_row(const std::string& partition, const std::string& table,
                                   const StoredRow& row) {
  std::lock_guard lock(mutex_);
  const CompiledTable& served = served_table(table);
  const Row values = decode_row(served.layout(), row.payload);
  write_row(served, partition, row, values);
}

std::optional<Row> ServerStorageBase::read_projection(const std::string& partition,
                                                      const std::string& table,
                                                      const std::string& row_id) {
  std::lock_guard lock(mutex_);
  const CompiledTable& served = served_table(table);
  if (!served.materialized) {
    throw InvalidArgument("table \"" + table + "\" is not materialized: it has no projection");
  }
  return read_projection_row(served, partition, row_id);
}

}  // namespace ssp::storage
