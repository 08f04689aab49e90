#include "push_rows.hpp"

#include <algorithm>
#include <stdexcept>
#include <variant>

#include "ssp/storage/row_codec.hpp"
#include "ssp/storage/stored_scopes.hpp"

namespace ssp::bench {

PushedCommit pushed_commit(const storage::CompiledTable& table, const push::PushCommit& commit,
                           const std::string& scope_variable) {
  const auto layout = table.layout();
  const auto project_column = std::find_if(
      layout.begin(), layout.end(), [](const auto& column) { return column.name == "project_id"; });
  if (project_column == layout.end()) {
    throw std::invalid_argument("pushed_commit: the table has no project_id column");
  }
  const auto project_index = static_cast<std::size_t>(project_column - layout.begin());
  PushedCommit pushed;
  // The stored result of an applied push: its status, commit seq and one
  // applied record per operation, as the pipeline's JSON writes them.
  pushed.result_json_prefix = R"({"status":"applied","commitSeq":)";
  pushed.result_json_suffix = R"(,"results":[)";
  for (std::size_t i = 0; i < commit.operations.size(); ++i) {
    const push::PushOperation& operation = commit.operations[i];
    const storage::Bytes& payload = operation.payload.value();
    PushedRow row{operation.row_id, storage::decode_row(layout, payload), {}, {}, &payload};
    row.scope_value = std::get<std::string>(row.projection.at(project_index));
    row.scopes_json = storage::scopes_json({{scope_variable, row.scope_value}});
    if (std::find(pushed.change_scope_values.begin(), pushed.change_scope_values.end(),
                  row.scope_value) == pushed.change_scope_values.end()) {
      pushed.change_scope_values.push_back(row.scope_value);
    }
    pushed.result_json_suffix += (i ? "," : "") + std::string(R"({"opIndex":)") +
                                 std::to_string(i) + R"(,"status":"applied"})";
    pushed.rows.push_back(std::move(row));
  }
  pushed.result_json_suffix += "]}";
  return pushed;
}

}  // namespace ssp::bench
