#include "push_model.hpp"

#include <algorithm>
#include <stdexcept>

namespace ssp::properties {

const ModelTable& model_table(const std::string& name) {
  static const ModelTable tasks{"tasks", 4, {{"project_id", 1}}};
  static const ModelTable docs{"docs", 4, {{"org_id", 1}, {"team_id", 2}}};
  if (name == tasks.name) return tasks;
  if (name == docs.name) return docs;
  throw std::invalid_argument("the push model knows no table " + name);
}

namespace {

// Texts the design notes fix (push.md §1.1 step 8).
constexpr const char* kConflictMessage = "row version does not match baseVersion (§6.2)";
constexpr const char* kResolverFailedMessage = "scope resolution failed (§3.4 step 4)";
constexpr const char* kDeleteDeniedMessage = "delete denied by scope authorization (§3.4)";

ModelRecord error(std::int64_t op_index, std::string code,
                  std::optional<std::string> message = std::nullopt) {
  ModelRecord record;
  record.op_index = op_index;
  record.status = ModelRecordStatus::error;
  record.code = std::move(code);
  record.message = std::move(message);
  return record;
}

const std::string* text_of(const storage::RowValue& value) {
  return std::get_if<std::string>(&value);
}

// The scope values a row holds (§3.1): a scope column's string as it is; a
// missing or empty value is left out.
std::map<std::string, std::string> scopes_of(const ModelTable& table, const storage::Row& values) {
  std::map<std::string, std::string> scopes;
  for (const auto& [variable, column] : table.scope_columns) {
    const std::string* text = text_of(values.at(column));
    if (text != nullptr && !text->empty()) scopes[variable] = *text;
  }
  return scopes;
}

// §3.4 steps 2–3: every declared variable granted ('*' or the value). A
// missing value denies (step 2), a stored row's as a payload's
// (docs/decisions.md, "missing scopes").
bool authorized(const ModelTable& table, const std::map<std::string, std::string>& scopes,
                const ScopeMap& allowed) {
  for (const auto& [variable, column] : table.scope_columns) {
    const auto value = scopes.find(variable);
    if (value == scopes.end()) return false;
    const auto granted = allowed.find(variable);
    if (granted == allowed.end()) return false;
    const auto& values = granted->second;
    if (std::find(values.begin(), values.end(), "*") == values.end() &&
        std::find(values.begin(), values.end(), value->second) == values.end()) {
      return false;
    }
  }
  return true;
}

std::optional<std::string> title_of(const std::string& table, const storage::Row& values) {
  if (table != "tasks") return std::nullopt;
  const std::string* text = text_of(values.at(2));
  if (text == nullptr) return std::nullopt;
  return *text;
}

}  // namespace

ModelAnswer PushPipelineModel::push(const ModelActor& actor, const ModelCommit& commit) {
  Partition& partition = partitions_[actor.partition];
  const auto key = std::make_pair(commit.client_id, commit.client_commit_id);
  // The clock value and the cache identity of this push: the push area reads
  // each once per push, before it runs (harness/areas/push_area.hpp); only a
  // push that mints an outcome uses them.
  const std::int64_t created_at = read_clock();
  const std::string identity = mint_identity();

  // §2.3, §6.3: a stored outcome replays; nothing runs.
  if (const auto stored = partition.results.find(key); stored != partition.results.end()) {
    ModelAnswer replay;
    replay.status = stored->second.status == ModelPushStatus::applied ? ModelAnswerStatus::cached
                                                                      : ModelAnswerStatus::rejected;
    replay.commit_seq = stored->second.commit_seq;
    replay.results = stored->second.results;
    replay.replayed = true;
    return replay;
  }

  Tables staged = partition.tables;  // writes of this commit, discarded on rejection
  std::vector<ModelChange> changes;
  std::optional<ModelRecord> terminating;
  // Evidence for the whole-commit validator: the next version of each upsert.
  std::vector<std::optional<std::int64_t>> next_versions;

  for (std::size_t i = 0; i < commit.operations.size() && !terminating; ++i) {
    const ModelOperation& op = commit.operations[i];
    const auto op_index = static_cast<std::int64_t>(i);
    const ModelTable& table = model_table(op.table);
    if (!actor.allowed_scopes) {
      terminating = error(op_index, "sync.forbidden", kResolverFailedMessage);
      break;
    }
    const ScopeMap& allowed = *actor.allowed_scopes;
    auto& rows = staged[op.table];
    const auto found = rows.find(op.row_id);
    const ModelRow* stored = found == rows.end() ? nullptr : &found->second;

    if (op.remove) {
      if (stored == nullptr) {  // §6.2: applied, no check, no change
        next_versions.push_back(std::nullopt);
        continue;
      }
      if (!authorized(table, stored->scopes, allowed)) {
        terminating = error(op_index, "sync.forbidden", kDeleteDeniedMessage);
        break;
      }
      if (title_of(op.table, stored->values) == std::optional<std::string>("keep")) {
        terminating = error(op_index, kKeptTaskCode, kKeptTaskMessage);
        break;
      }
      changes.push_back(
          ModelChange{op.table, op.row_id, true, std::nullopt, stored->scopes, std::nullopt});
      rows.erase(found);
      next_versions.push_back(std::nullopt);
      continue;
    }

    // Upsert. The key column (column 0 of both tables) must render the rowId.
    const std::string* key_text = text_of(op.values.at(0));
    if (key_text == nullptr || *key_text != op.row_id) {
      terminating = error(op_index, "sync.invalid_request");
      break;
    }
    if (stored != nullptr) {
      if (!authorized(table, stored->scopes, allowed)) {
        terminating = error(op_index, "sync.forbidden");
        break;
      }
      if (op.base_version && *op.base_version != stored->server_version) {  // base 0 included
        ModelRecord conflict;
        conflict.op_index = op_index;
        conflict.status = ModelRecordStatus::conflict;
        conflict.code = "sync.version_conflict";
        conflict.message = kConflictMessage;
        conflict.server_version = stored->server_version;
        conflict.server_row = stored->values;
        terminating = conflict;
        break;
      }
      // §3.4 rule 5: the scope columns keep their stored values.
      storage::Row values = op.values;
      for (const auto& [variable, column] : table.scope_columns)
        values[column] = stored->values[column];
      if (title_of(op.table, values) == std::optional<std::string>("reject")) {
        terminating = error(op_index, kRejectedTitleCode, kRejectedTitleMessage);
        break;
      }
      ModelRow next{values, stored->server_version + 1, stored->scopes};
      changes.push_back(
          ModelChange{op.table, op.row_id, false, next.server_version, next.scopes, next.values});
      next_versions.push_back(next.server_version);
      found->second = std::move(next);
      continue;
    }
    const auto scopes = scopes_of(table, op.values);
    if (op.base_version && *op.base_version != 0) {
      // The payload is authorized before the absence is told (§6.2).
      terminating = authorized(table, scopes, allowed) ? error(op_index, "sync.row_missing")
                                                       : error(op_index, "sync.forbidden");
      break;
    }
    if (!authorized(table, scopes, allowed)) {
      terminating = error(op_index, "sync.forbidden");
      break;
    }
    if (title_of(op.table, op.values) == std::optional<std::string>("reject")) {
      terminating = error(op_index, kRejectedTitleCode, kRejectedTitleMessage);
      break;
    }
    changes.push_back(ModelChange{op.table, op.row_id, false, 1, scopes, op.values});
    next_versions.push_back(1);
    rows[op.row_id] = ModelRow{op.values, 1, scopes};
  }

  if (!terminating) {  // §6.8: the whole-commit validator sees every operation
    for (std::size_t i = 0; i < next_versions.size(); ++i) {
      if (next_versions[i] && *next_versions[i] >= kVersionCap) {
        terminating = error(static_cast<std::int64_t>(i), kVersionCapCode, kVersionCapMessage);
        break;
      }
    }
  }

  ModelStoredResult result;
  result.recorded_at_ms = created_at;
  ModelAnswer answer;
  if (terminating) {
    // §6.4: nothing of the commit stays but its rejection.
    result.status = ModelPushStatus::rejected;
    result.results = {*terminating};
    answer.status = ModelAnswerStatus::rejected;
  } else {
    // §2.1: the next seq of the partition, shared by every change.
    const std::int64_t seq = static_cast<std::int64_t>(partition.log.size()) + 1;
    partition.tables = std::move(staged);
    partition.log.push_back(ModelCommitEntry{seq, commit.client_id, commit.client_commit_id,
                                             actor.actor_id, created_at, std::move(changes)});
    result.status = ModelPushStatus::applied;
    result.commit_seq = seq;
    for (std::size_t i = 0; i < commit.operations.size(); ++i) {
      ModelRecord applied;
      applied.op_index = static_cast<std::int64_t>(i);
      result.results.push_back(applied);
    }
    answer.status = ModelAnswerStatus::applied;
    answer.commit_seq = seq;
  }
  result.cache_identity = identity;
  answer.results = result.results;
  partition.results[key] = std::move(result);
  return answer;
}

std::optional<ModelRow> PushPipelineModel::row(const std::string& partition,
                                               const std::string& table,
                                               const std::string& row_id) const {
  const auto p = partitions_.find(partition);
  if (p == partitions_.end()) return std::nullopt;
  const auto t = p->second.tables.find(table);
  if (t == p->second.tables.end()) return std::nullopt;
  const auto r = t->second.find(row_id);
  if (r == t->second.end()) return std::nullopt;
  return r->second;
}

std::vector<ModelCommitEntry> PushPipelineModel::log(const std::string& partition) const {
  const auto p = partitions_.find(partition);
  if (p == partitions_.end()) return {};
  return p->second.log;
}

std::int64_t PushPipelineModel::max_commit_seq(const std::string& partition) const {
  return static_cast<std::int64_t>(log(partition).size());
}

std::optional<ModelStoredResult> PushPipelineModel::stored_result(
    const std::string& partition, const std::string& client_id,
    const std::string& client_commit_id) const {
  const auto p = partitions_.find(partition);
  if (p == partitions_.end()) return std::nullopt;
  const auto r = p->second.results.find(std::make_pair(client_id, client_commit_id));
  if (r == p->second.results.end()) return std::nullopt;
  return r->second;
}

}  // namespace ssp::properties
