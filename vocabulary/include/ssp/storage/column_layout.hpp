// A column as the row codec sees it (SSP2 §2.4): name, one of the eight wire
// types, nullability. Everything else about a column (crdtType, encryption)
// is schema-IR metadata the codec and the stored layouts never look at.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ssp::storage {

// The closed set of column types with their §2.4 wire tags. blob_ref rides the
// json machinery and crdt rides bytes; the tags stay distinct.
enum class ColumnType : std::uint8_t {
  string = 1,
  integer = 2,   // i64 within ±(2^53−1)
  floating = 3,  // f64; its name in schemas and layouts is "float"
  boolean = 4,
  json = 5,
  bytes = 6,
  blob_ref = 7,
  crdt = 8,
};

// The name used in schemas and stored layouts: "string", "integer", "float",
// "boolean", "json", "bytes", "blob_ref", "crdt".
std::string_view column_type_name(ColumnType type);
// The type with that exact name, or nothing.
std::optional<ColumnType> column_type_from_name(std::string_view name);

// Exactly the inputs the positional row codec depends on (storage.md §1.2).
struct ColumnLayout {
  std::string name;
  ColumnType type = ColumnType::string;
  bool nullable = false;

  friend bool operator==(const ColumnLayout&, const ColumnLayout&) = default;
};

}  // namespace ssp::storage
