// The storage vocabulary's own functions: names, lookups, the typed errors' texts.
#include <utility>

#include "ssp/storage/push_result.hpp"
#include "ssp/storage/push_transaction.hpp"
#include "ssp/storage/schema.hpp"
#include "ssp/storage/server_storage.hpp"

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

std::optional<std::size_t> CompiledTable::column_position(std::string_view column) const {
  for (std::size_t i = 0; i < columns().size(); ++i) {
    if (columns()[i].name == column) return i;
  }
  return std::nullopt;
}

std::vector<ColumnLayout> CompiledTable::layout() const {
  std::vector<ColumnLayout> out;
  out.reserve(declared.columns.size());
  for (const Column& column : declared.columns) out.push_back(column.layout());
  return out;
}

const CompiledTable* CompiledSchema::find(std::string_view name) const {
  for (const CompiledTable& table : tables) {
    if (table.name() == name) return &table;
  }
  return nullptr;
}

StorageConstraintError::StorageConstraintError(std::int64_t op_index)
    : SspError("application row violates a relational constraint"), op_index_(op_index) {}

StorageQueryError::StorageQueryError(std::string code, const std::string& message)
    : InvalidArgument(code + ": " + message), code_(std::move(code)) {}

}  // namespace ssp::storage

namespace ssp::push {

IdempotencyCacheMiss::IdempotencyCacheMiss()
    : SspError("persisted push result unreadable (§6.3)") {}

}  // namespace ssp::push
