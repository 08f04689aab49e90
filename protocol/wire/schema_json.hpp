// The JSON form of a server schema, so tools and out-of-process candidates can
// load one. Documented in docs/storage.md ("Schema JSON"):
//   {"version": 3, "tables": [{"name": "tasks", "primaryKey": "id",
//     "columns": [{"name": "id", "type": "string", "nullable": false,
//                  "crdtType"?: s, "encrypted"?: b, "declaredType"?: s}],
//     "scopes": ["project:{project_id}" | {"pattern": p, "column": c}],
//     "indexes"?: [{"name": n, "columns": [c…], "unique"?: b}],
//     "materialize"?: b}]}
// Tables are an array (declaration order, DECISION Q9). Unknown and duplicate
// keys are errors.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "ssp/storage/schema.hpp"

namespace ssp::storage {

// Parses the JSON form. Throws SchemaError naming the JSON field path
// (e.g. `tables[0].columns[2].type`) and what is wrong with it. The result is
// not compiled: call compile_schema for the §1.1 rules.
ServerSchema parse_schema_json(std::string_view text);

// The same from an already parsed value (the driver protocol carries schemas
// inside its messages). Duplicate keys cannot be detected here.
ServerSchema parse_schema_value(const nlohmann::ordered_json& root);

// The JSON form of `schema`, pretty-printed; parse_schema_json reads it back
// equal. Optional fields are written only when set.
std::string schema_to_json(const ServerSchema& schema);
// The same as a value.
nlohmann::ordered_json schema_json_value(const ServerSchema& schema);

}  // namespace ssp::storage
