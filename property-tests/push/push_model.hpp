// A plain in-memory model of the push pipeline over the push fixtures'
// schema (harness/fixtures/push_fixtures.hpp: tasks and docs), written from the design
// notes (push.md §1.1 step 8, §1.3, §1.4, §4.1–§4.2, §5) and SSP2 §2.1–§2.3,
// §3.4, §6.2–§6.4, not from the reference: it calls none of the reference's
// rules (run_push, the authorization, the operation pipeline, the stored
// result codec). PUSH-MODEL-1 compares a candidate with it after every push.
//
// The model keeps decoded row values, never payload bytes: the test encodes
// the model's values with the candidate's row codec to push them and decodes
// what the candidate stores to compare.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ssp/scopes/scope_map.hpp"
#include "ssp/storage/row.hpp"

namespace ssp::properties {

// What the model knows of a table of the fixed schema: its name, its columns
// in payload order, and which columns are scope columns (variable = column
// name, as push_schema() declares "project:{project_id}" and so on).
struct ModelTable {
  std::string name;
  std::size_t column_count = 0;
  std::vector<std::pair<std::string, std::size_t>> scope_columns;  // variable, column index
};
// tasks(id, project_id, title?, done) and docs(id, org_id, team_id, body?).
const ModelTable& model_table(const std::string& name);

// The row validator and whole-commit validator rules of the test (the test
// installs equivalent callbacks on the candidate's options):
//  - tasks rows: an upsert whose title is "reject" is refused with
//    kRejectedTitle; deleting a stored task whose title is "keep" is refused
//    with kKeptTask;
//  - the commit validator refuses the first operation whose next server
//    version would be kVersionCap or more, with kVersionCapCode, at its index.
inline constexpr const char* kRejectedTitleCode = "test.rejected_title";
inline constexpr const char* kRejectedTitleMessage = "a task titled reject is refused";
inline constexpr const char* kKeptTaskCode = "test.kept_task";
inline constexpr const char* kKeptTaskMessage = "a task titled keep is never deleted";
inline constexpr std::int64_t kVersionCap = 4;
inline constexpr const char* kVersionCapCode = "test.version_cap";
inline constexpr const char* kVersionCapMessage = "row versions stop below the cap";

struct ModelOperation {
  std::string table;
  std::string row_id;
  bool remove = false;
  storage::Row values;  // upserts: the pushed row (its key may differ from row_id)
  std::optional<std::int64_t> base_version;
};

struct ModelCommit {
  std::string client_id;
  std::string client_commit_id;
  std::vector<ModelOperation> operations;
};

struct ModelActor {
  std::string partition;
  std::string actor_id;
  std::optional<ScopeMap> allowed_scopes;  // nothing: the resolver failed
};

enum class ModelRecordStatus { applied, conflict, error };

// One result record (§6.3). `message` is nothing where neither SSP2 nor the
// design notes fix the text (it is diagnostic, §6.3.1): any non-empty text
// is accepted there, and the test holds replays to the first answer's text.
struct ModelRecord {
  std::int64_t op_index = 0;
  ModelRecordStatus status = ModelRecordStatus::applied;
  std::string code;
  std::optional<std::string> message;
  std::optional<std::int64_t> server_version;  // conflict
  std::optional<storage::Row> server_row;      // conflict: the stored row's values
  bool retryable = false;
};

enum class ModelPushStatus { applied, rejected };

// A stored outcome: what get_push_result must read back.
struct ModelStoredResult {
  ModelPushStatus status = ModelPushStatus::applied;
  std::optional<std::int64_t> commit_seq;
  std::int64_t recorded_at_ms = 0;
  std::string cache_identity;
  std::vector<ModelRecord> results;
};

enum class ModelAnswerStatus { applied, cached, rejected };

// The PUSH_RESULT a push must answer.
struct ModelAnswer {
  ModelAnswerStatus status = ModelAnswerStatus::applied;
  std::optional<std::int64_t> commit_seq;
  std::vector<ModelRecord> results;
  bool replayed = false;
};

struct ModelRow {
  storage::Row values;
  std::int64_t server_version = 1;
  std::map<std::string, std::string> scopes;
};

struct ModelChange {
  std::string table;
  std::string row_id;
  bool remove = false;
  std::optional<std::int64_t> row_version;  // upserts
  std::map<std::string, std::string> scopes;
  std::optional<storage::Row> values;  // upserts
};

struct ModelCommitEntry {
  std::int64_t commit_seq = 0;
  std::string client_id;
  std::string client_commit_id;
  std::string actor_id;
  std::int64_t created_at_ms = 0;
  std::vector<ModelChange> changes;
};

class PushPipelineModel {
 public:
  // The clock the candidate's options read: `start`, one more per read, and
  // advance(ms) moves it on. Cache identities are "identity-1", "identity-2", …
  // Each push reads one of each, whether or not it mints an outcome.
  explicit PushPipelineModel(std::int64_t clock_start) : now_(clock_start) {}

  // Moves the clock on between pushes.
  void advance(std::int64_t ms) { now_ += ms; }

  // Runs `commit` for `actor` and returns the answer; the state moves on as
  // the pipeline would move a storage.
  ModelAnswer push(const ModelActor& actor, const ModelCommit& commit);

  // State, per partition.
  std::optional<ModelRow> row(const std::string& partition, const std::string& table,
                              const std::string& row_id) const;
  std::vector<ModelCommitEntry> log(const std::string& partition) const;
  std::int64_t max_commit_seq(const std::string& partition) const;
  std::optional<ModelStoredResult> stored_result(const std::string& partition,
                                                 const std::string& client_id,
                                                 const std::string& client_commit_id) const;

 private:
  using Tables = std::map<std::string, std::map<std::string, ModelRow>>;
  struct Partition {
    Tables tables;
    std::vector<ModelCommitEntry> log;
    std::map<std::pair<std::string, std::string>, ModelStoredResult> results;
  };

  std::int64_t read_clock() { return now_++; }
  std::string mint_identity() { return std::string("identity-").append(std::to_string(++identities_)); }

  std::int64_t now_;
  int identities_ = 0;
  std::map<std::string, Partition> partitions_;
};

}  // namespace ssp::properties
