// Small models, written in test code, of the storage's texts and names that
// the storage properties compare a candidate with: the marker's layouts text
// (design/storage.md §1.2), a table's physical columns and a quoted SQL
// identifier. They stand in for the reference's own functions, which a
// property must not use as its oracle (TRACE-8): a wrong rule there would
// agree with itself.
#pragma once

#include <string>
#include <vector>

#include "ssp/storage/schema.hpp"

namespace ssp::properties {

// `text` as JSON.stringify writes a string: quoted; `"` and `\` escaped;
// \b \f \n \r \t short; other code units below 0x20 as \u00xx (lowercase
// hex); everything else, non-ASCII included, as it is. `text` is valid UTF-8
// (the generators' names are): the writer throws on anything else.
std::string json_string_model(const std::string& text);

// The layouts text of `schema` (storage.md §1.2): a compact JSON object, one
// member per table in declaration order, each an array of
// {"name":…,"type":…,"nullable":…} per declared column in order; "{}" for a
// schema without tables.
std::string layouts_text_model(const storage::ServerSchema& schema);

// The physical columns of a table that `materialized` says is or is not
// materialized (storage.md §1.1): _sync_partition, _sync_row_id, the declared
// columns when materialized, then _sync_server_version, _sync_scopes,
// _sync_payload and _sync_column_versions.
std::vector<std::string> physical_columns_model(const storage::TableSchema& table,
                                                bool materialized);

// `name` as a double-quoted SQL identifier ("" doubles a quote), valid in
// SQLite and PostgreSQL.
std::string quoted_identifier_model(const std::string& name);

}  // namespace ssp::properties
