#include "harness/push_fixtures.hpp"

#include "harness/capability_gate.hpp"

namespace ssp::push {

void PrintTo(const OperationResult& record, std::ostream* out) {
  static constexpr const char* kStatus[] = {"applied", "conflict", "error"};
  *out << "{opIndex " << record.op_index << ", " << kStatus[static_cast<int>(record.status)];
  if (record.status != OperationStatus::applied) {
    *out << ", " << record.code << ", \"" << record.message << "\"";
  }
  if (record.server_version) *out << ", serverVersion " << *record.server_version;
  if (record.server_row) *out << ", serverRow " << record.server_row->size() << " bytes";
  if (record.status == OperationStatus::error) *out << ", retryable " << record.retryable;
  if (record.details_json) *out << ", details " << *record.details_json;
  *out << "}";
}

void PrintTo(const PushAnswer& answer, std::ostream* out) {
  static constexpr const char* kStatus[] = {"applied", "cached", "rejected"};
  *out << kStatus[static_cast<int>(answer.status)];
  if (answer.commit_seq) *out << " seq " << *answer.commit_seq;
  if (answer.replayed) *out << " (replayed)";
  *out << " [";
  for (const auto& record : answer.results) {
    PrintTo(record, out);
    *out << " ";
  }
  *out << "]";
}

}  // namespace ssp::push

namespace ssp::harness {

using storage::Column;
using storage::ColumnType;
using storage::TableSchema;

storage::ServerSchema push_schema() {
  TableSchema tasks;
  tasks.name = "tasks";
  tasks.columns = {{"id", ColumnType::string, false, {}, false, {}},
                   {"project_id", ColumnType::string, false, {}, false, {}},
                   {"title", ColumnType::string, true, {}, false, {}},
                   {"done", ColumnType::boolean, false, {}, false, {}}};
  tasks.primary_key = "id";
  tasks.scopes = {{"project:{project_id}", std::nullopt}};
  tasks.materialize = true;

  TableSchema members;
  members.name = "members";
  members.columns = {{"id", ColumnType::string, false, {}, false, {}},
                     {"org_id", ColumnType::string, false, {}, false, {}},
                     {"email", ColumnType::string, false, {}, false, {}}};
  members.primary_key = "id";
  members.scopes = {{"org:{org_id}", std::nullopt}};
  members.indexes = {{"by_email", {"email"}, true}};
  members.materialize = true;

  TableSchema docs;
  docs.name = "docs";
  docs.columns = {{"id", ColumnType::string, false, {}, false, {}},
                  {"org_id", ColumnType::string, false, {}, false, {}},
                  {"team_id", ColumnType::string, false, {}, false, {}},
                  {"body", ColumnType::string, true, {}, false, {}}};
  docs.primary_key = "id";
  docs.scopes = {{"org:{org_id}", std::nullopt}, {"team:{team_id}", std::nullopt}};
  docs.materialize = true;

  return storage::ServerSchema{1, {tasks, members, docs}};
}

storage::ServerSchema next_push_schema() {
  storage::ServerSchema next = push_schema();
  next.version = 2;
  next.tables[0].columns.push_back({"priority", ColumnType::integer, true, {}, false, {}});
  return next;
}

ScopeMap all_scopes() {
  return {{"project_id", {"*"}}, {"org_id", {"*"}}, {"team_id", {"*"}}};
}

std::optional<std::string> task_title(const storage::Row& values) {
  const auto* title = values.size() > 2 ? std::get_if<std::string>(&values[2]) : nullptr;
  return title ? std::optional(*title) : std::nullopt;
}

void PushTest::SetUp() {
  StorageTest::SetUp();
  if (IsSkipped() || HasFatalFailure()) return;
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::push);
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::rows);
  schema_ = compiled(push_schema());
  storage().ensure_schema(schema_);
}

namespace {

storage::RowValue text_or_null(const std::optional<std::string>& text) {
  if (text) return *text;
  return std::monostate{};
}

}  // namespace

storage::Bytes PushTest::task(const std::string& id, const std::string& project,
                              std::optional<std::string> title, bool done) {
  const auto layout = schema_.find("tasks")->layout();
  return candidate().rows().encode(layout, {id, project, text_or_null(title), done});
}

storage::Bytes PushTest::member(const std::string& id, const std::string& org,
                                const std::string& email) {
  const auto layout = schema_.find("members")->layout();
  return candidate().rows().encode(layout, {id, org, email});
}

storage::Bytes PushTest::doc(const std::string& id, const std::string& org,
                             const std::string& team) {
  const auto layout = schema_.find("docs")->layout();
  return candidate().rows().encode(layout, {id, org, team, std::monostate{}});
}

storage::Row PushTest::decode(const std::string& table, const storage::Bytes& payload) {
  const auto layout = schema_.find(table)->layout();
  return candidate().rows().decode(layout, payload);
}

push::PushOperation PushTest::upsert(const std::string& table, const std::string& row_id,
                                     storage::Bytes payload,
                                     std::optional<std::int64_t> base_version) {
  return push::PushOperation{table, row_id, push::OperationKind::upsert, std::move(payload),
                             base_version};
}

push::PushOperation PushTest::remove(const std::string& table, const std::string& row_id) {
  return push::PushOperation{table, row_id, push::OperationKind::remove, std::nullopt,
                             std::nullopt};
}

push::PushCommit PushTest::commit(const std::string& client_commit_id,
                                  std::vector<push::PushOperation> operations,
                                  const std::string& client_id) {
  return push::PushCommit{client_id, client_commit_id, std::move(operations)};
}

push::PushActor PushTest::actor(std::optional<ScopeMap> allowed, const std::string& partition) {
  return push::PushActor{partition, "user-1", std::move(allowed)};
}

push::PushOptions PushTest::options() {
  push::PushOptions options;
  options.clock = [this] { return now_++; };
  options.new_cache_identity = [this] { return "identity-" + std::to_string(++identities_); };
  return options;
}

push::PushAnswer PushTest::push(const push::PushCommit& commit) {
  return push(commit, actor(), options());
}

push::PushAnswer PushTest::push(const push::PushCommit& commit,
                                const push::PushOptions& options) {
  return push(commit, actor(), options);
}

push::PushAnswer PushTest::push(const push::PushCommit& commit, const push::PushActor& actor,
                                const push::PushOptions& options) {
  return candidate().push().push(storage(), schema_, actor, commit, options);
}

std::int64_t PushTest::apply(const push::PushCommit& commit) {
  const push::PushAnswer answer = push(commit);
  EXPECT_EQ(answer.status, push::PushAnswerStatus::applied)
      << "commit " << commit.client_commit_id << ": " << ::testing::PrintToString(answer);
  return answer.commit_seq.value_or(0);
}

std::int64_t PushTest::max_seq(const std::string& partition) {
  return storage().get_max_commit_seq(partition);
}

std::vector<storage::Commit> PushTest::commits(const std::string& partition) {
  return storage().read_commit_window(partition, 0, 1000);
}

std::optional<storage::StoredRow> PushTest::row(const std::string& table,
                                                const std::string& row_id,
                                                const std::string& partition) {
  return storage().get_row(partition, table, row_id);
}

std::optional<std::int64_t> PushTest::version_of(const std::string& table,
                                                 const std::string& row_id) {
  const auto stored = row(table, row_id);
  if (!stored) return std::nullopt;
  return stored->server_version;
}

std::optional<storage::Bytes> PushTest::payload_of(const std::string& table,
                                                   const std::string& row_id) {
  auto stored = row(table, row_id);
  if (!stored) return std::nullopt;
  return std::move(stored->payload);
}

std::optional<std::map<std::string, std::string>> PushTest::scopes_of(const std::string& table,
                                                                      const std::string& row_id) {
  auto stored = row(table, row_id);
  if (!stored) return std::nullopt;
  return std::move(stored->scopes);
}

std::int64_t PushTest::count(const std::string& table) {
  const auto values = database().query_column("SELECT COUNT(*) FROM " + table);
  return values.size() == 1 ? std::stoll(values.front()) : -1;
}

push::OperationResult error_at(std::int64_t op_index, const std::string& code,
                               const std::string& message, bool retryable) {
  push::OperationResult record;
  record.op_index = op_index;
  record.status = push::OperationStatus::error;
  record.code = code;
  record.message = message;
  record.retryable = retryable;
  return record;
}

}  // namespace ssp::harness
