#include "push_workload.hpp"

#include <stdexcept>
#include <string_view>

#include "ssp/storage/row_codec.hpp"

namespace ssp::bench {

using storage::ColumnType;

namespace {

// prefix + n, appended rather than `"x" + std::to_string(n)`, which GCC 12
// misreports under -Wrestrict in Release.
std::string labelled(std::string_view prefix, std::uint64_t n) {
  std::string label(prefix);
  label += std::to_string(n);
  return label;
}

}  // namespace

storage::ServerSchema push_bench_schema() {
  storage::TableSchema tasks;
  tasks.name = "tasks";
  tasks.columns = {{"id", ColumnType::string, false, {}, false, {}},
                   {"project_id", ColumnType::string, false, {}, false, {}},
                   {"title", ColumnType::string, true, {}, false, {}},
                   {"done", ColumnType::boolean, false, {}, false, {}}};
  tasks.primary_key = "id";
  tasks.scopes = {{"project:{project_id}", std::nullopt}};
  tasks.materialize = true;
  return storage::ServerSchema{1, {tasks}};
}

ScopeMap push_bench_scopes() { return {{"project_id", {"*"}}}; }

std::string push_partition(int thread, int partitions) {
  return labelled("bench-", static_cast<std::uint64_t>(thread % partitions));
}

PushCommitStream::PushCommitStream(const storage::CompiledSchema& schema, int thread,
                                   int operations)
    : thread_(thread), operations_(operations) {
  const storage::CompiledTable* tasks = schema.find("tasks");
  if (tasks == nullptr) throw std::invalid_argument("PushCommitStream: the schema has no tasks");
  layout_ = tasks->layout();
}

push::PushCommit PushCommitStream::commit(std::uint64_t index) const {
  push::PushCommit commit;
  commit.client_id = labelled("bench-client-", static_cast<std::uint64_t>(thread_));
  commit.client_commit_id = labelled("commit-", index);
  std::string prefix = labelled("t", static_cast<std::uint64_t>(thread_));
  prefix += '-';
  prefix += std::to_string(index);
  prefix += '-';
  const std::string project = labelled("project-", index % 16);
  for (int op = 0; op < operations_; ++op) {
    std::string row_id = prefix;
    row_id += std::to_string(op);
    std::string title = "benchmark task ";
    title += row_id;
    storage::Row row{row_id, project, std::move(title), op % 2 == 0};
    commit.operations.push_back({"tasks", row_id, push::OperationKind::upsert,
                                 storage::encode_row(layout_, row), /*base_version=*/0});
  }
  return commit;
}

std::uint64_t row_checksum_bits(const std::string& row_id) {
  std::uint64_t hash = 0xcbf29ce484222325u;
  for (const char c : row_id) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3u;
  }
  return hash & 0xffff'ffff'ffffu;
}

}  // namespace ssp::bench
