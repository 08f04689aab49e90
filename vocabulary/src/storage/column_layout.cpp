#include <array>
#include <utility>

#include "ssp/storage/column_layout.hpp"

namespace ssp::storage {
namespace {

constexpr std::array<std::pair<ColumnType, std::string_view>, 8> kNames = {{
    {ColumnType::string, "string"},
    {ColumnType::integer, "integer"},
    {ColumnType::floating, "float"},
    {ColumnType::boolean, "boolean"},
    {ColumnType::json, "json"},
    {ColumnType::bytes, "bytes"},
    {ColumnType::blob_ref, "blob_ref"},
    {ColumnType::crdt, "crdt"},
}};

}  // namespace

std::string_view column_type_name(ColumnType type) {
  for (const auto& [candidate, name] : kNames) {
    if (candidate == type) return name;
  }
  return "unknown";
}

std::optional<ColumnType> column_type_from_name(std::string_view name) {
  for (const auto& [type, candidate] : kNames) {
    if (candidate == name) return type;
  }
  return std::nullopt;
}

}  // namespace ssp::storage
