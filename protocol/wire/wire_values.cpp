#include "wire/wire_values.hpp"

#include <cmath>
#include <limits>

#include "ssp/encoding/base64.hpp"
#include "wire/schema_json.hpp"

namespace ssp::wire {
namespace {

constexpr std::string_view kBytes = "$bytes";
constexpr std::string_view kFloat = "$float";

}  // namespace

Json row_value_to_json(const storage::RowValue& value) {
  struct Visitor {
    Json operator()(std::monostate) const { return nullptr; }
    Json operator()(const std::string& text) const { return text; }
    Json operator()(std::int64_t integer) const { return integer; }
    Json operator()(bool boolean) const { return boolean; }
    Json operator()(const Bytes& bytes) const { return Json{{kBytes, base64_encode(bytes)}}; }
    Json operator()(double number) const {
      if (std::isnan(number)) return Json{{kFloat, "NaN"}};
      if (std::isinf(number)) return Json{{kFloat, number > 0 ? "Infinity" : "-Infinity"}};
      return number;  // nlohmann writes a fraction or exponent, and -0.0 as such
    }
  };
  return std::visit(Visitor{}, value);
}

storage::RowValue row_value_from_json(const Json& value, const std::string& path) {
  if (value.is_null()) return std::monostate{};
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>();
  if (value.is_number_float()) return value.get<double>();
  if (value.is_number()) return integer_value(value, path);
  if (value.is_object() && value.size() == 1 && value.contains(kBytes)) {
    return bytes_value(value.at(kBytes), path + "." + std::string(kBytes));
  }
  if (value.is_object() && value.size() == 1 && value.contains(kFloat)) {
    const Json& name = value.at(kFloat);
    if (name == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (name == "Infinity") return std::numeric_limits<double>::infinity();
    if (name == "-Infinity") return -std::numeric_limits<double>::infinity();
    throw WireError(path + ".$float: expected \"NaN\", \"Infinity\" or \"-Infinity\"");
  }
  throw WireError(path + ": not a row value");
}

Json row_to_json(const storage::Row& row) {
  Json values = Json::array();
  for (const auto& value : row) values.push_back(row_value_to_json(value));
  return values;
}

storage::Row row_from_json(const Json& value, const std::string& path) {
  storage::Row row;
  for (std::size_t i = 0; i < array_value(value, path).size(); ++i) {
    row.push_back(row_value_from_json(value[i], element_path(path, i)));
  }
  return row;
}

Json columns_to_json(const std::vector<storage::ColumnLayout>& columns) {
  Json list = Json::array();
  for (const auto& column : columns) {
    list.push_back({{"name", column.name},
                    {"type", std::string(storage::column_type_name(column.type))},
                    {"nullable", column.nullable}});
  }
  return list;
}

std::vector<storage::ColumnLayout> columns_from_json(const Json& value, const std::string& path) {
  std::vector<storage::ColumnLayout> columns;
  for (std::size_t i = 0; i < array_value(value, path).size(); ++i) {
    const Fields f(value[i], element_path(path, i));
    const auto type = storage::column_type_from_name(f.text("type"));
    if (!type) throw WireError(f.path_of("type") + ": not one of the eight column types");
    columns.push_back({f.text("name"), *type, f.boolean("nullable")});
  }
  return columns;
}

Json stored_row_to_json(const storage::StoredRow& row) {
  Json scopes = Json::object();
  for (const auto& [variable, scope_value] : row.scopes) scopes[variable] = scope_value;
  return Json{{"rowId", row.row_id},
              {"serverVersion", row.server_version},
              {"scopes", std::move(scopes)},
              {"payload", base64_encode(row.payload)}};
}

storage::StoredRow stored_row_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  storage::StoredRow row;
  row.row_id = f.text("rowId");
  row.server_version = f.integer("serverVersion");
  const Fields scopes = f.object("scopes");
  for (const auto& [variable, scope_value] : f.at("scopes").items()) {
    row.scopes[variable] = scopes.text(variable);
  }
  row.payload = f.bytes("payload");
  return row;
}

Json row_answer_to_json(const std::optional<storage::StoredRow>& row) {
  return Json{{"row", row ? stored_row_to_json(*row) : Json()}};
}

std::optional<storage::StoredRow> row_answer_from_json(const Json& result, const std::string& path) {
  const Json& row = Fields(result, path).at("row");
  if (row.is_null()) return std::nullopt;
  return stored_row_from_json(row, path + ".row");
}

Json stored_rows_to_json(const std::vector<storage::StoredRow>& rows) {
  Json out = Json::array();
  for (const auto& row : rows) out.push_back(stored_row_to_json(row));
  return out;
}

std::vector<storage::StoredRow> stored_rows_from_json(const Json& value, const std::string& path) {
  std::vector<storage::StoredRow> rows;
  for (std::size_t i = 0; i < array_value(value, path).size(); ++i) {
    rows.push_back(stored_row_from_json(value[i], element_path(path, i)));
  }
  return rows;
}

namespace {

constexpr std::pair<storage::SchemaReport::Action, std::string_view> kActions[] = {
    {storage::SchemaReport::Action::memoized, "memoized"},
    {storage::SchemaReport::Action::verified, "verified"},
    {storage::SchemaReport::Action::migrated, "migrated"},
};

}  // namespace

Json schema_report_to_json(const storage::SchemaReport& report) {
  std::string_view action;
  for (const auto& [value, name] : kActions) {
    if (value == report.action) action = name;
  }
  return Json{{"action", action},
              {"configuredVersion", report.configured_version},
              {"storedVersion", report.stored_version ? Json(*report.stored_version) : Json()},
              {"retiredTables", report.retired_tables},
              {"statements", report.statements},
              {"rewrittenRows", report.rewritten_rows}};
}

storage::SchemaReport schema_report_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  storage::SchemaReport report;
  const std::string action = f.text("action");
  bool known = false;
  for (const auto& [value_of, name] : kActions) {
    if (name == action) report.action = value_of, known = true;
  }
  if (!known) throw WireError(f.path_of("action") + ": not memoized, verified or migrated");
  report.configured_version = f.integer("configuredVersion");
  report.stored_version = f.nullable_integer("storedVersion");
  report.retired_tables = texts_value(f.array("retiredTables"), f.path_of("retiredTables"));
  report.statements = texts_value(f.array("statements"), f.path_of("statements"));
  report.rewritten_rows = f.integer("rewrittenRows");
  return report;
}

Json compiled_schema_to_json(const storage::CompiledSchema& schema) {
  storage::ServerSchema declared{schema.version, {}};
  for (const storage::CompiledTable& table : schema.tables) {
    declared.tables.push_back(table.declared);
    declared.tables.back().materialize = table.materialized;
  }
  return storage::schema_json_value(declared);
}

std::string_view scope_status_name(ScopeStatus status) {
  return status == ScopeStatus::active ? "active" : "revoked";
}

ScopeStatus scope_status_at(const Fields& fields, std::string_view name) {
  const std::string text = fields.text(name);
  for (const auto status : {ScopeStatus::active, ScopeStatus::revoked}) {
    if (text == scope_status_name(status)) return status;
  }
  throw WireError(fields.path_of(name) + ": not \"active\" or \"revoked\"");
}

Json scope_map_to_json(const ScopeMap& scopes) {
  Json map = Json::object();
  for (const auto& [variable, values] : scopes) map[variable] = values;
  return map;
}

ScopeMap scope_map_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  ScopeMap scopes;
  for (const auto& [variable, values] : value.items()) {
    scopes[variable] = texts_value(values, f.path_of(variable));
  }
  return scopes;
}

}  // namespace ssp::wire
