// The candidate's schema rules (SSP2 §2.4, §3.1; docs/storage.md): the schema
// JSON form, the compile rules and the stored-layouts text. No database.
#pragma once

#include <string>
#include <string_view>

#include "ssp/storage/schema.hpp"

namespace ssp::harness {

struct CompiledSchemaAnswer {
  // Every table as declared, materialize resolved, scope patterns bound.
  storage::CompiledSchema schema;
  // The marker's layouts text (storage.md §1.2), byte for byte.
  std::string layouts_json;
};

class SchemaArea {
 public:
  virtual ~SchemaArea() = default;

  // Reads the schema JSON form. Throws SchemaError naming the JSON field path.
  virtual storage::ServerSchema parse(std::string_view text) = 0;

  // Applies the compile rules. Throws SchemaError naming the table and, where
  // there is one, the column, index or scope pattern at fault.
  virtual CompiledSchemaAnswer compile(const storage::ServerSchema& schema) = 0;
};

}  // namespace ssp::harness
