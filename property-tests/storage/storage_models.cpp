#include "storage_models.hpp"

#include <nlohmann/json.hpp>

namespace ssp::properties {
namespace {

// The names of schemas and layouts (storage.md §1.2), spelled out here rather
// than taken from the reference's column_type_name.
const char* type_name_model(storage::ColumnType type) {
  switch (type) {
    case storage::ColumnType::string: return "string";
    case storage::ColumnType::integer: return "integer";
    case storage::ColumnType::floating: return "float";
    case storage::ColumnType::boolean: return "boolean";
    case storage::ColumnType::json: return "json";
    case storage::ColumnType::bytes: return "bytes";
    case storage::ColumnType::blob_ref: return "blob_ref";
    case storage::ColumnType::crdt: return "crdt";
  }
  return "unknown";
}

}  // namespace

std::string json_string_model(const std::string& text) {
  // Another writer than the reference's (json_text.cpp): nlohmann's, whose
  // escapes of valid UTF-8 are JSON.stringify's (\" \\ \b \f \n \r \t, and
  // \u00xx in lower case for the other control characters; nothing else).
  return nlohmann::json(text).dump();
}

std::string layouts_text_model(const storage::ServerSchema& schema) {
  std::string out = "{";
  for (std::size_t t = 0; t < schema.tables.size(); ++t) {
    const storage::TableSchema& table = schema.tables[t];
    out += (t ? "," : "") + json_string_model(table.name) + ":[";
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      const storage::Column& column = table.columns[c];
      out += (c ? "," : "") + std::string("{\"name\":") + json_string_model(column.name) +
             ",\"type\":\"" + type_name_model(column.type) +
             "\",\"nullable\":" + (column.nullable ? "true" : "false") + "}";
    }
    out += "]";
  }
  return out + "}";
}

std::vector<std::string> physical_columns_model(const storage::TableSchema& table,
                                                bool materialized) {
  std::vector<std::string> names = {"_sync_partition", "_sync_row_id"};
  if (materialized) {
    for (const storage::Column& column : table.columns) names.push_back(column.name);
  }
  for (const char* internal :
       {"_sync_server_version", "_sync_scopes", "_sync_payload", "_sync_column_versions"}) {
    names.emplace_back(internal);
  }
  return names;
}

std::string quoted_identifier_model(const std::string& name) {
  std::string out = "\"";
  for (const char c : name) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace ssp::properties
