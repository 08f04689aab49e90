// Row-codec values in PostgreSQL's text forms, for parameters and results of
// the server storage (storage.md §4.3 projection types).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ssp/storage/row_codec.hpp"

namespace ssp::storage {

// BYTEA input in hex form: \x followed by two lowercase hex digits per byte.
std::string bytea_text(const Bytes& bytes);

// The text a projection column of `type` receives for `value`; nothing is
// NULL. A json value JSONB cannot hold becomes NULL (the payload keeps it).
std::optional<std::string> projection_text(const RowValue& value, ColumnType type);

// A projection column's `::text` rendering back as a value of `type`.
RowValue projection_value(std::string_view text, ColumnType type);

// Whether JSONB accepts `json` (already a valid JSON document): it refuses the
// \u0000 escape, unpaired surrogate escapes and numbers outside NUMERIC.
bool jsonb_accepts(std::string_view json);

}  // namespace ssp::storage
