#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "ssp/encoding/json_text.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/schema.hpp"
#include "ssp/storage/schema_compile.hpp"
#include "ssp/storage/storage_errors.hpp"

namespace ssp::storage {
namespace {

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  }
  return true;
}

[[noreturn]] void refuse(const std::string& where, const std::string& problem) {
  throw SchemaError("schema: " + where + ": " + problem);
}

void check_identifier(std::string_view name, const std::string& where) {
  if (auto problem = identifier_problem(name)) refuse(where, *problem);
}

// The one {variable} of a §3.1 pattern, or why there is none.
std::string scope_variable(const ScopePattern& scope, const std::string& where) {
  const std::string& pattern = scope.pattern;
  const std::size_t open = pattern.find('{');
  const std::size_t close = pattern.find('}');
  const bool one_pair = open != std::string::npos && close != std::string::npos && open < close &&
                        pattern.find('{', open + 1) == std::string::npos &&
                        pattern.find('}', close + 1) == std::string::npos;
  if (!one_pair || close == open + 1) {
    refuse(where, "scope pattern " + quoted_name(pattern) +
                      " must have the form prefix:{variable} with exactly one variable");
  }
  return pattern.substr(open + 1, close - open - 1);
}

bool has_column(const TableSchema& table, std::string_view name) {
  return std::any_of(table.columns.begin(), table.columns.end(),
                     [&](const Column& column) { return column.name == name; });
}

void check_columns(const TableSchema& table, const std::string& where) {
  if (table.columns.empty()) refuse(where, "a table needs at least one column");
  std::set<std::string> seen;
  for (const Column& column : table.columns) {
    const std::string at = where + " column " + quoted_name(column.name);
    check_identifier(column.name, at);
    if (!seen.insert(column.name).second) refuse(at, "duplicate column");
    if (column.type == ColumnType::crdt && (!column.crdt_type || column.crdt_type->empty())) {
      refuse(at, "a crdt column needs a crdtType");
    }
    if (column.encrypted && column.type != ColumnType::bytes) {
      refuse(at, "an encrypted column has type bytes (its app type goes in declaredType)");
    }
  }
  if (!has_column(table, table.primary_key)) {
    refuse(where, "primary key " + quoted_name(table.primary_key) + " is not a column");
  }
}

std::vector<ScopeBinding> compile_scopes(const TableSchema& table, const std::string& where) {
  if (table.scopes.empty()) {
    refuse(where, "a table needs at least one scope pattern (§3.1)");
  }
  std::vector<ScopeBinding> bindings;
  std::map<std::string, std::string> column_of;
  for (const ScopePattern& scope : table.scopes) {
    ScopeBinding binding;
    binding.variable = scope_variable(scope, where);
    binding.column = scope.column.value_or(binding.variable);
    const std::string at = where + " scope " + quoted_name(scope.pattern);
    if (!has_column(table, binding.column)) {
      refuse(at, "column " + quoted_name(binding.column) + " does not exist");
    }
    const auto [found, inserted] = column_of.emplace(binding.variable, binding.column);
    if (!inserted && found->second != binding.column) {
      refuse(at, "variable " + quoted_name(binding.variable) + " is bound to columns " +
                     quoted_name(found->second) + " and " + quoted_name(binding.column));
    }
    bindings.push_back(std::move(binding));
  }
  return bindings;
}

void check_indexes(const TableSchema& table, const std::string& where) {
  std::set<std::string> seen;
  for (const Index& index : table.indexes) {
    const std::string at = where + " index " + quoted_name(index.name);
    check_identifier(index.name, at);
    if (!seen.insert(index.name).second) refuse(at, "duplicate index name");
    if (index.columns.empty()) refuse(at, "an index needs at least one column");
    for (const std::string& column : index.columns) {
      if (!has_column(table, column))
        refuse(at, "column " + quoted_name(column) + " does not exist");
    }
  }
}

// storage.md §1.1: true unless every column outside the key and the scopes is
// encrypted (and there is one): a server cannot index ciphertext usefully.
bool default_materialize(const TableSchema& table, const std::vector<ScopeBinding>& scopes) {
  bool any = false;
  for (const Column& column : table.columns) {
    const bool is_scope = std::any_of(scopes.begin(), scopes.end(), [&](const ScopeBinding& s) {
      return s.column == column.name;
    });
    if (column.name == table.primary_key || is_scope) continue;
    if (!column.encrypted) return true;
    any = true;
  }
  return !any;
}

}  // namespace

std::optional<std::string> identifier_problem(std::string_view name) {
  if (name.empty()) return "a name must not be empty";
  if (!is_well_formed_utf8(name)) return "a name must be well-formed UTF-8";
  if (name.size() > kMaxIdentifierBytes) {
    return "a name is at most 63 UTF-8 bytes (this one has " + std::to_string(name.size()) + ")";
  }
  if (starts_with_ignoring_case(name, "sync_") || starts_with_ignoring_case(name, "_sync")) {
    return "the sync_ and _sync prefixes (any case) are reserved for the storage";
  }
  return std::nullopt;
}

CompiledSchema compile_schema(const ServerSchema& schema) {
  CompiledSchema compiled;
  compiled.version = schema.version;
  std::set<std::string> names;
  for (const TableSchema& table : schema.tables) {
    const std::string where = "table " + quoted_name(table.name);
    check_identifier(table.name, where);
    if (!names.insert(table.name).second) refuse(where, "duplicate table");
    check_columns(table, where);
    CompiledTable out;
    out.declared = table;
    out.scopes = compile_scopes(table, where);
    check_indexes(table, where);
    out.materialized = table.materialize.value_or(default_materialize(table, out.scopes));
    compiled.tables.push_back(std::move(out));
  }
  return compiled;
}

}  // namespace ssp::storage
