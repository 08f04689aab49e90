// The server schema IR (storage.md §1.1, SSP2 §2.4 and §3.1). A ServerSchema
// is what an application declares; the reference's compile_schema
// (ssp/storage/schema_compile.hpp) checks it and resolves defaults into a
// CompiledSchema, the only form storage accepts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ssp/storage/column_layout.hpp"

namespace ssp::storage {

struct Column {
  std::string name;
  ColumnType type = ColumnType::string;
  bool nullable = false;
  // Selects the server merger of a crdt column (§5.10.1); required for crdt.
  std::optional<std::string> crdt_type;
  // A client-side encrypted column (§5.11): type is bytes, declared_type is
  // the application type before encryption. IR metadata only.
  bool encrypted = false;
  std::optional<std::string> declared_type;

  ColumnLayout layout() const { return {name, type, nullable}; }
  friend bool operator==(const Column&, const Column&) = default;
};

// §3.1: 'prefix:{variable}', optionally bound to a column other than the
// variable's namesake.
struct ScopePattern {
  std::string pattern;
  std::optional<std::string> column;

  friend bool operator==(const ScopePattern&, const ScopePattern&) = default;
};

struct Index {
  std::string name;  // the declared name; the physical name is physical_index_name(name)
  std::vector<std::string> columns;
  bool unique = false;

  friend bool operator==(const Index&, const Index&) = default;
};

struct TableSchema {
  std::string name;
  std::vector<Column> columns;  // declaration order = row-codec order
  std::string primary_key;
  std::vector<ScopePattern> scopes;
  std::vector<Index> indexes;
  // Whether app columns get projection columns; unset = the compile default.
  std::optional<bool> materialize;

  friend bool operator==(const TableSchema&, const TableSchema&) = default;
};

struct ServerSchema {
  // The generated application schema version: the only number the marker
  // compares. Not range-checked (storage.md §1.1); expected ≥ 1.
  std::int64_t version = 1;
  std::vector<TableSchema> tables;  // declaration order

  friend bool operator==(const ServerSchema&, const ServerSchema&) = default;
};

// A scope pattern after compilation: the variable and the column it reads.
struct ScopeBinding {
  std::string variable;
  std::string column;

  friend bool operator==(const ScopeBinding&, const ScopeBinding&) = default;
};

struct CompiledTable {
  TableSchema declared;
  bool materialized = true;  // the resolved materialize flag
  std::vector<ScopeBinding> scopes;

  const std::string& name() const { return declared.name; }
  const std::vector<Column>& columns() const { return declared.columns; }
  // The position of the column named `column` in columns(), or nothing.
  std::optional<std::size_t> column_position(std::string_view column) const;
  std::vector<ColumnLayout> layout() const;
  friend bool operator==(const CompiledTable&, const CompiledTable&) = default;
};

// Tables are plain keys in declaration order: no integer-like key reordering,
// no special names (DECISION Q9 in docs/storage.md).
struct CompiledSchema {
  std::int64_t version = 1;
  std::vector<CompiledTable> tables;

  // The table named `name`, or nullptr.
  const CompiledTable* find(std::string_view name) const;
  friend bool operator==(const CompiledSchema&, const CompiledSchema&) = default;
};

}  // namespace ssp::storage
