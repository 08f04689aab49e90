// The protocol's shared shapes (docs/driver-protocol.md, "Values"): segment
// records, find keys, stats, row values, stored rows, schema reports, scope
// maps. Encoders write what the doc shows; decoders check shapes only — a
// value outside a contract (an unsafe integer, U+0000 in a name) still
// decodes, because refusing it is the candidate's job.
#pragma once

#include "ssp/scopes/scope_map.hpp"
#include "ssp/scopes/scope_resolution.hpp"
#include "ssp/segments/segment_types.hpp"
#include "ssp/storage/column_layout.hpp"
#include "ssp/storage/row.hpp"
#include "ssp/storage/schema.hpp"
#include "ssp/storage/schema_report.hpp"
#include "ssp/storage/server_storage.hpp"
#include "wire/wire_json.hpp"

namespace ssp::wire {

// Row values, by kind: null, string, integer, float (a number with a fraction
// or exponent, or {"$float": "NaN" | "Infinity" | "-Infinity"}), boolean,
// {"$bytes": base64}.
Json row_value_to_json(const storage::RowValue& value);
storage::RowValue row_value_from_json(const Json& value, const std::string& path);
Json row_to_json(const storage::Row& row);
storage::Row row_from_json(const Json& value, const std::string& path);
Json columns_to_json(const std::vector<storage::ColumnLayout>& columns);
std::vector<storage::ColumnLayout> columns_from_json(const Json& value, const std::string& path);

// Server storage values.
Json stored_row_to_json(const storage::StoredRow& row);
storage::StoredRow stored_row_from_json(const Json& value, const std::string& path);
// The answer of storage.get_row, tx.read_row and push.read_row:
// {"row": stored row | null}.
Json row_answer_to_json(const std::optional<storage::StoredRow>& row);
std::optional<storage::StoredRow> row_answer_from_json(const Json& result, const std::string& path);
Json stored_rows_to_json(const std::vector<storage::StoredRow>& rows);
std::vector<storage::StoredRow> stored_rows_from_json(const Json& value, const std::string& path);
Json schema_report_to_json(const storage::SchemaReport& report);
storage::SchemaReport schema_report_from_json(const Json& value, const std::string& path);

// The schema JSON form (docs/storage.md) of a compiled schema: each table as
// declared, with materialize written as compile resolved it, so compiling the
// text again gives `schema` back.
Json compiled_schema_to_json(const storage::CompiledSchema& schema);

// "active" | "revoked" (scope.effective's status, download's scopeStatus).
std::string_view scope_status_name(ScopeStatus status);
ScopeStatus scope_status_at(const Fields& fields, std::string_view name);

// {"variable": [text…], …}.
Json scope_map_to_json(const ScopeMap& scopes);
ScopeMap scope_map_from_json(const Json& value, const std::string& path);

}  // namespace ssp::wire
