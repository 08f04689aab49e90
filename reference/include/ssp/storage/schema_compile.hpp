// The schema compiler (storage.md §1.1): a declared ServerSchema checked and
// resolved into the CompiledSchema storage accepts.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ssp/storage/schema.hpp"

namespace ssp::storage {

// Checks every compile rule of storage.md §1.1 and resolves materialize.
// Throws SchemaError whose message names the table and, where there is one,
// the column, index or scope pattern at fault. Rules, in the order checked:
// identifiers (non-empty, no sync_/_sync prefix in any case, ≤ 63 UTF-8 bytes,
// well-formed UTF-8), no duplicate table or column, the primary key names a
// column, at least one scope pattern with exactly one {variable} bound to an
// existing column and no variable bound to two columns, crdt columns carry a
// crdtType, encrypted columns are bytes, index names unique per table with at
// least one existing column each.
CompiledSchema compile_schema(const ServerSchema& schema);

// The identifier rule alone: nothing when `name` is acceptable, else why not.
std::optional<std::string> identifier_problem(std::string_view name);

}  // namespace ssp::storage
