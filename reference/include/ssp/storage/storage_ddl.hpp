// The SQL the server storage runs, for both dialects (storage.md §2.1, §3,
// §4.1, §4.3). Pure text builders: no connection, no I/O.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "ssp/storage/schema.hpp"

namespace ssp::storage {

enum class SqlDialect { sqlite, postgres };

// The storage-internal columns of every app table, in tableColumnNames order
// around the projection: the first two lead, the last four follow the app
// columns. All six are required physically at the same version (§4.4).
inline constexpr std::string_view kPartitionColumn = "_sync_partition";
inline constexpr std::string_view kRowIdColumn = "_sync_row_id";
inline constexpr std::string_view kServerVersionColumn = "_sync_server_version";
inline constexpr std::string_view kScopesColumn = "_sync_scopes";
inline constexpr std::string_view kPayloadColumn = "_sync_payload";
inline constexpr std::string_view kColumnVersionsColumn = "_sync_column_versions";
inline constexpr std::array<std::string_view, 6> kInternalColumns = {
    kPartitionColumn, kRowIdColumn,   kServerVersionColumn,
    kScopesColumn,    kPayloadColumn, kColumnVersionsColumn};

// Every core sync_* table and index, CREATE … IF NOT EXISTS, one statement per
// element (§4.1, including sync_tombstones and the 0.22 sync_row_scopes index).
std::vector<std::string> core_ddl(SqlDialect dialect);

// §2.1: the marker table.
std::string marker_ddl(SqlDialect dialect);

// The legacy core upgrade: sync_clients gains wire_version (default 1). On
// PostgreSQL the statement is IF NOT EXISTS; on SQLite run it only when the
// column is missing.
std::string wire_version_upgrade_ddl(SqlDialect dialect);

// The physical columns of `table` in INSERT order (upstream tableColumnNames):
// partition, row id, app columns when materialized, then the last four.
std::vector<std::string> table_column_names(const CompiledTable& table);

// The projection column type of an app column in `dialect` (§4.3).
std::string_view projection_type(ColumnType type, SqlDialect dialect);

// §4.3: CREATE TABLE IF NOT EXISTS with every column of table_column_names,
// app columns NOT NULL iff non-nullable, and the (partition, row id) key.
std::string create_table_ddl(const CompiledTable& table, SqlDialect dialect);

// ALTER TABLE … ADD COLUMN for a projection column: nullable, no default.
std::string add_projection_column_ddl(const std::string& table, const Column& column,
                                      SqlDialect dialect);
// ALTER TABLE … ADD COLUMN "_sync_column_versions" (nullable).
std::string add_column_versions_ddl(const std::string& table, SqlDialect dialect);

// CREATE [UNIQUE ]INDEX IF NOT EXISTS "<physical>" ON "<t>" ("_sync_partition", …).
std::string create_index_ddl(const std::string& table, const Index& index);
std::string drop_index_ddl(const std::string& physical_name);
std::string drop_table_ddl(const std::string& table);

}  // namespace ssp::storage
