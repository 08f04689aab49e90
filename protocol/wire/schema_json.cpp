#include "wire/schema_json.hpp"

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "ssp/encoding/json_input.hpp"
#include "ssp/encoding/json_safe_integer.hpp"
#include "ssp/storage/storage_errors.hpp"

namespace ssp::storage {
namespace {

using Json = nlohmann::ordered_json;

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  throw SchemaError("schema JSON: " + (path.empty() ? std::string("(top level)") : path) + ": " +
                    problem);
}

std::string member_path(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string element_path(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

// An object whose keys are all in `allowed` and which has every key of `required`.
const Json& object_at(const Json& value, const std::string& path,
                      std::initializer_list<const char*> allowed,
                      std::initializer_list<const char*> required) {
  if (!value.is_object()) fail(path, "expected an object");
  for (const auto& [key, member] : value.items()) {
    bool known = false;
    for (const char* name : allowed) known = known || key == name;
    if (!known) fail(member_path(path, key), "unknown field");
  }
  for (const char* name : required) {
    if (!value.contains(name)) fail(member_path(path, name), "missing required field");
  }
  return value;
}

std::string string_at(const Json& object, const std::string& path, const char* key) {
  const Json& value = object.at(key);
  if (!value.is_string()) fail(member_path(path, key), "expected a string");
  return value.get<std::string>();
}

bool boolean_at(const Json& object, const std::string& path, const char* key) {
  const Json& value = object.at(key);
  if (!value.is_boolean()) fail(member_path(path, key), "expected true or false");
  return value.get<bool>();
}

const Json& array_at(const Json& object, const std::string& path, const char* key) {
  const Json& value = object.at(key);
  if (!value.is_array()) fail(member_path(path, key), "expected an array");
  return value;
}

Column parse_column(const Json& value, const std::string& path) {
  object_at(value, path, {"name", "type", "nullable", "crdtType", "encrypted", "declaredType"},
            {"name", "type", "nullable"});
  Column column;
  column.name = string_at(value, path, "name");
  const std::string type = string_at(value, path, "type");
  const auto parsed = column_type_from_name(type);
  if (!parsed) {
    fail(member_path(path, "type"),
         "expected one of string, integer, float, boolean, json, bytes, blob_ref, crdt; got \"" +
             type + "\"");
  }
  column.type = *parsed;
  column.nullable = boolean_at(value, path, "nullable");
  if (value.contains("crdtType")) column.crdt_type = string_at(value, path, "crdtType");
  if (value.contains("encrypted")) column.encrypted = boolean_at(value, path, "encrypted");
  if (value.contains("declaredType")) column.declared_type = string_at(value, path, "declaredType");
  return column;
}

ScopePattern parse_scope(const Json& value, const std::string& path) {
  if (value.is_string()) return ScopePattern{value.get<std::string>(), std::nullopt};
  if (!value.is_object()) fail(path, "expected a pattern string or {\"pattern\", \"column\"}");
  object_at(value, path, {"pattern", "column"}, {"pattern"});
  ScopePattern scope{string_at(value, path, "pattern"), std::nullopt};
  if (value.contains("column")) scope.column = string_at(value, path, "column");
  return scope;
}

Index parse_index(const Json& value, const std::string& path) {
  object_at(value, path, {"name", "columns", "unique"}, {"name", "columns"});
  Index index;
  index.name = string_at(value, path, "name");
  const Json& columns = array_at(value, path, "columns");
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (!columns[i].is_string())
      fail(element_path(member_path(path, "columns"), i), "expected a string");
    index.columns.push_back(columns[i].get<std::string>());
  }
  if (value.contains("unique")) index.unique = boolean_at(value, path, "unique");
  return index;
}

TableSchema parse_table(const Json& value, const std::string& path) {
  object_at(value, path, {"name", "columns", "primaryKey", "scopes", "indexes", "materialize"},
            {"name", "columns", "primaryKey", "scopes"});
  TableSchema table;
  table.name = string_at(value, path, "name");
  const Json& columns = array_at(value, path, "columns");
  for (std::size_t i = 0; i < columns.size(); ++i) {
    table.columns.push_back(
        parse_column(columns[i], element_path(member_path(path, "columns"), i)));
  }
  table.primary_key = string_at(value, path, "primaryKey");
  const Json& scopes = array_at(value, path, "scopes");
  for (std::size_t i = 0; i < scopes.size(); ++i) {
    table.scopes.push_back(parse_scope(scopes[i], element_path(member_path(path, "scopes"), i)));
  }
  if (value.contains("indexes")) {
    const Json& indexes = array_at(value, path, "indexes");
    for (std::size_t i = 0; i < indexes.size(); ++i) {
      table.indexes.push_back(
          parse_index(indexes[i], element_path(member_path(path, "indexes"), i)));
    }
  }
  if (value.contains("materialize")) table.materialize = boolean_at(value, path, "materialize");
  return table;
}

// Parses `text`, refusing a key repeated within one object (JSON.parse would
// silently keep the last, hiding a mistake in a hand-written schema).
Json parse_strict(std::string_view text) {
  std::vector<std::set<std::string>> open;  // keys seen per open container
  std::string duplicate;
  const Json::parser_callback_t track = [&](int, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start:
        open.emplace_back();
        break;
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        open.pop_back();
        break;
      case Json::parse_event_t::key:
        if (!open.back().insert(parsed.get<std::string>()).second && duplicate.empty()) {
          duplicate = parsed.get<std::string>();
        }
        break;
      case Json::parse_event_t::value:
        break;
    }
    return true;
  };
  Json root;
  try {
    root = parse_json_input<Json>(text, track);
  } catch (const JsonSyntaxError& error) {
    fail("", std::string("not valid JSON: ") + error.what());
  }
  if (!duplicate.empty()) fail("", "the key \"" + duplicate + "\" appears twice in one object");
  return root;
}

}  // namespace

ServerSchema parse_schema_json(std::string_view text) { return parse_schema_value(parse_strict(text)); }

ServerSchema parse_schema_value(const Json& root) {
  object_at(root, "", {"version", "tables"}, {"version", "tables"});
  ServerSchema schema;
  const auto version = json_safe_integer(root.at("version"));
  if (!version) fail("version", "expected an integer within ±(2^53−1)");
  schema.version = *version;
  const Json& tables = array_at(root, "", "tables");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    schema.tables.push_back(parse_table(tables[i], element_path("tables", i)));
  }
  return schema;
}

std::string schema_to_json(const ServerSchema& schema) { return schema_json_value(schema).dump(2); }

Json schema_json_value(const ServerSchema& schema) {
  Json tables = Json::array();
  for (const TableSchema& table : schema.tables) {
    Json out;
    out["name"] = table.name;
    Json columns = Json::array();
    for (const Column& column : table.columns) {
      Json c;
      c["name"] = column.name;
      c["type"] = std::string(column_type_name(column.type));
      c["nullable"] = column.nullable;
      if (column.crdt_type) c["crdtType"] = *column.crdt_type;
      if (column.encrypted) c["encrypted"] = true;
      if (column.declared_type) c["declaredType"] = *column.declared_type;
      columns.push_back(std::move(c));
    }
    out["columns"] = std::move(columns);
    out["primaryKey"] = table.primary_key;
    Json scopes = Json::array();
    for (const ScopePattern& scope : table.scopes) {
      if (scope.column)
        scopes.push_back({{"pattern", scope.pattern}, {"column", *scope.column}});
      else
        scopes.push_back(scope.pattern);
    }
    out["scopes"] = std::move(scopes);
    if (!table.indexes.empty()) {
      Json indexes = Json::array();
      for (const Index& index : table.indexes) {
        Json i;
        i["name"] = index.name;
        i["columns"] = index.columns;
        if (index.unique) i["unique"] = true;
        indexes.push_back(std::move(i));
      }
      out["indexes"] = std::move(indexes);
    }
    if (table.materialize) out["materialize"] = *table.materialize;
    tables.push_back(std::move(out));
  }
  Json root;
  root["version"] = schema.version;
  root["tables"] = std::move(tables);
  return root;
}

}  // namespace ssp::storage
