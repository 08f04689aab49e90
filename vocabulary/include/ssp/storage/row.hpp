// A row as the application sees it (SSP2 §2.4): one value per column, in
// column order. Its encoding, the positional row codec, is the reference's
// (ssp/storage/row_codec.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "ssp/storage/column_layout.hpp"
#include "ssp/values/bytes.hpp"

namespace ssp::storage {

using ssp::Bytes;

// One column value. Which alternative goes with which type:
//   NULL                        → std::monostate
//   string, json, blob_ref      → std::string (json/blob_ref: the raw JSON text)
//   integer                     → std::int64_t
//   float                       → double
//   boolean                     → bool
//   bytes, crdt                 → Bytes
using RowValue = std::variant<std::monostate, std::string, std::int64_t, double, bool, Bytes>;
using Row = std::vector<RowValue>;

}  // namespace ssp::storage
