// What an applied push of the bench workload leaves in the server storage's
// tables, computed without the pipeline: the rows push_rows_floor writes
// through the raw client library (push_rows_floor.hpp). Pure: the floors of
// both backends take their values from here, so they write the same rows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ssp/push/push_pipeline.hpp"
#include "ssp/storage/schema.hpp"

namespace ssp::bench {

// One application row, as the materialized table holds it.
struct PushedRow {
  std::string row_id;
  storage::Row projection;        // the payload's columns, decoded
  std::string scope_value;        // the value of the table's one scope variable
  std::string scopes_json;        // {"<variable>":"<value>"}, as the row and its change store it
  const storage::Bytes* payload;  // the operation's, which outlives the rows
};

// Everything a push of one commit writes, the commit seq aside (the counter
// gives it inside the transaction).
struct PushedCommit {
  std::vector<PushedRow> rows;                   // one per operation, in order
  std::vector<std::string> change_scope_values;  // distinct scope values of the commit
  std::string result_json_prefix;                // the stored result, before the commit seq
  std::string result_json_suffix;                // … and after it
};

// The rows an applied push of `commit` leaves: insert-only upserts into the
// bench workload's tasks table, scoped `<scope_variable>:{project_id}`.
PushedCommit pushed_commit(const storage::CompiledTable& table, const push::PushCommit& commit,
                           const std::string& scope_variable);

}  // namespace ssp::bench
