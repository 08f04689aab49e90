// RapidCheck generators for the storage invariants (design/storage.md §7):
// S random valid schemas, M layout-changing mutations at the same version,
// N non-layout mutations, A append-only evolutions, rows across partitions,
// and the §2.4 reporting oracle written over schemas rather than JSON.
#pragma once

#include <rapidcheck.h>

#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ssp/storage/schema.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::properties {

// S: 1–5 tables of 1–8 columns. The first column of each table is a
// non-null string: the primary key and the scope column ("k:{<it>}"). Other
// columns have random types and nullability; random non-unique index sets
// and materialize (unset, true or false). Names are lowercase (SQLite table
// names ignore case) and include JSON-escaped, non-ASCII and JavaScript-
// special ones.
rc::Gen<storage::ServerSchema> gen_schema();

// M: one change that alters the layouts, at the same version: rename,
// retype or toggle nullable of one column; swap two columns; drop or append
// one; add or remove a table. Returns the mutated schema and a description.
rc::Gen<std::pair<storage::ServerSchema, std::string>> gen_layout_mutation(
    const storage::ServerSchema& schema);

// N: changes the layouts do not see, at the same version: indexes, scopes,
// primary key, crdtType, table order, materialize on → off (off → on is
// refused by the physical check, DECISION Q3 in docs/storage.md). A scope or
// key change keeps the table's resolved materialize flag (set explicitly),
// since the default depends on which columns those are.
rc::Gen<std::pair<storage::ServerSchema, std::string>> gen_non_layout_mutation(
    const storage::ServerSchema& schema);

// A: an append-only evolution at version + 1: nullable columns appended,
// tables added or dropped, indexes changed, materialize turned on or off.
rc::Gen<std::pair<storage::ServerSchema, std::string>> gen_append_only_evolution(
    const storage::ServerSchema& schema);

// A bump that is not append-only (version + 1): a column removed, changed
// (rename, type, nullability) or a non-nullable column appended.
rc::Gen<std::pair<storage::ServerSchema, std::string>> gen_breaking_evolution(
    const storage::ServerSchema& schema);

// One stored row of a table, with its partition.
struct GeneratedRow {
  std::string partition;
  std::string table;
  storage::StoredRow row;
  storage::Row values;  // what the payload encodes
};

// Rows: 0–4 per table across partitions p1…p3, valid values for every type,
// unique (partition, row id) per table.
rc::Gen<std::vector<GeneratedRow>> gen_rows(const storage::CompiledSchema& schema);

// The §2.4 reporting rules, applied to two schemas: the first (table, column)
// at which `stored` does not describe `configured`, column absent for an extra
// stored table; nothing when the layouts are equal.
std::optional<std::pair<std::string, std::optional<std::string>>> expected_mismatch(
    const storage::ServerSchema& configured, const storage::ServerSchema& stored);

// Whether two projection/payload values are the same value: json compared as
// parsed JSON (JSONB re-renders it), everything else exactly.
bool same_value(const storage::RowValue& a, const storage::RowValue& b, storage::ColumnType type);

}  // namespace ssp::properties

namespace ssp::storage {
// How RapidCheck prints a counterexample: the schema's JSON form.
void showValue(const ServerSchema& schema, std::ostream& out);
void showValue(const TableSchema& table, std::ostream& out);
}  // namespace ssp::storage

namespace ssp::properties {
void showValue(const GeneratedRow& row, std::ostream& out);
}  // namespace ssp::properties
