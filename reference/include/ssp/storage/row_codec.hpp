// The positional row codec of SSP2 §2.4: a null bitmap of ceil(n/8) bytes
// (bit i set = column i is NULL, LSB-first, padding bits zero), then each
// non-null value in column order. No names, no tags: a payload decodes only
// under the exact column list it was written with, which is what the stored
// layouts protect.
#pragma once

#include <cstdint>
#include <span>

#include "ssp/storage/column_layout.hpp"
#include "ssp/storage/row.hpp"

namespace ssp::storage {

// Encodes `row` under `columns`. Throws InvalidArgument naming the column when
// the row has the wrong arity, a value has the wrong alternative for its type,
// a non-nullable column is NULL, an integer is outside ±(2^53−1), a string is
// not well-formed UTF-8, a json value is not a JSON document, or a blob_ref is
// not a canonical BlobRef (§5.9.1). Canonical: equal rows give equal bytes.
Bytes encode_row(std::span<const ColumnLayout> columns, const Row& row);

// Decodes `payload` under `columns`. Throws RowDecodeError naming the column
// for: a null bit on a non-nullable column, a set padding bit, truncated input,
// bytes left after the last column, a string that is not UTF-8, a json value
// that is not a JSON document, a blob_ref that is not a canonical BlobRef, an
// integer outside ±(2^53−1), a boolean byte other than 0 or 1. json and
// blob_ref text is returned verbatim.
Row decode_row(std::span<const ColumnLayout> columns, std::span<const std::uint8_t> payload);

// Whether `value` is the alternative `type` uses (monostate always matches).
bool value_matches_type(const RowValue& value, ColumnType type);

}  // namespace ssp::storage
