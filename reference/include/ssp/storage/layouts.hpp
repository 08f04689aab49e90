// Stored layouts (storage.md §1.2): the codec-relevant subset of a schema, kept
// in the marker so a running server can tell whether it can decode the stored
// rows. The configured side is typed; the stored side is whatever JSON the
// marker holds, so it keeps every field optional and never crashes on a
// wrong shape.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ssp/storage/column_layout.hpp"
#include "ssp/storage/schema.hpp"

namespace ssp::storage {

struct TableLayout {
  std::string table;
  std::vector<ColumnLayout> columns;

  friend bool operator==(const TableLayout&, const TableLayout&) = default;
};

// Per table, in schema declaration order.
using SchemaLayouts = std::vector<TableLayout>;

SchemaLayouts layouts_of(const CompiledSchema& schema);

// The marker text: byte-identical to upstream JSON.stringify of the layouts
// object — compact, tables in declaration order, {"name","type","nullable"}
// per column in that key order. An empty schema gives "{}".
std::string layouts_json(const SchemaLayouts& layouts);
inline std::string layouts_json(const CompiledSchema& schema) {
  return layouts_json(layouts_of(schema));
}
// One column object of that text: {"name":…,"type":…,"nullable":…}.
std::string column_layout_json(const ColumnLayout& column);

// One element of a stored table array. A field that is absent or of the wrong
// JSON type is nothing, and then the column matches no configured column.
struct StoredColumn {
  std::optional<std::string> name;
  std::optional<std::string> type;
  std::optional<bool> nullable;
  // The element re-serialized compactly (what JSON.stringify gives), for the
  // migration's "column i changed (…)" message.
  std::string json;

  bool matches(const ColumnLayout& column) const;
  // The element as a codec column, when its type names one of the eight types.
  std::optional<ColumnLayout> as_layout() const;
};

struct StoredTable {
  std::string table;
  // False when the stored value is not an array: it then has no columns and
  // mismatches every configured column (storage.md §8 Q10).
  bool is_array = true;
  std::vector<StoredColumn> columns;
};

// Tables in stored key order. Duplicate keys keep the first position and the
// last value, as JSON.parse does.
struct StoredLayouts {
  std::vector<StoredTable> tables;

  const StoredTable* find(std::string_view table) const;
};

// Parses the marker's layouts value. Nothing (SQL NULL) or "" gives no tables.
// Throws SchemaRefusal(layouts_unreadable) when the text is not JSON or its top
// level is not an object (DECISION: a refusal, never a crash or a silent pass).
StoredLayouts parse_layouts(const std::optional<std::string>& text);

// The first disagreement between the configured and stored layouts, with the
// 0.22 reporting rules (storage.md §2.4): configured tables in schema order,
// columns by index up to the longer list; the configured column name when it
// exists, else the stored one, else ""; only then stored tables that are not
// configured, in stored order (column absent).
struct LayoutMismatch {
  std::string table;
  std::optional<std::string> column;

  // `table "T" column "c"` or `table "X"`, names JSON-quoted.
  std::string describe() const;
  friend bool operator==(const LayoutMismatch&, const LayoutMismatch&) = default;
};
std::optional<LayoutMismatch> compare_layouts(const SchemaLayouts& configured,
                                              const StoredLayouts& stored);

// Structural equality of two marker texts: same tables (any order), each with
// equal column lists; key order, extra fields and whitespace do not matter.
// Throws like parse_layouts.
bool layouts_equal(const std::optional<std::string>& a, const std::optional<std::string>& b);

}  // namespace ssp::storage
