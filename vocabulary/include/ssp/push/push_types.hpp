// What the push pipeline (SSP2 §2.1–§2.3, §3.4, §6; design notes push.md §1.1)
// is written in: a push commit and its actor, the hook points, the validators
// and what they see, the notification, the options and the answer. The
// pipeline itself is the reference's (ssp/push/push_pipeline.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ssp/scopes/scope_map.hpp"
#include "ssp/storage/commit_log.hpp"
#include "ssp/storage/push_result.hpp"
#include "ssp/storage/push_transaction.hpp"

namespace ssp::push {

enum class OperationKind { upsert, remove };

// One operation of a PUSH_COMMIT frame (§6.1).
struct PushOperation {
  std::string table;
  std::string row_id;
  OperationKind op = OperationKind::upsert;
  std::optional<storage::Bytes> payload;     // upserts: the §2.4 row payload
  std::optional<std::int64_t> base_version;  // absent: last-write-wins; 0: insert only
};

struct PushCommit {
  std::string client_id;
  std::string client_commit_id;
  std::vector<PushOperation> operations;
};

// Who pushes, with the scopes the host's resolver allowed them, resolved once
// per request (§3.4 step 1). Nothing when the resolver threw: every push of
// the request is then rejected with sync.forbidden at its first operation.
struct PushActor {
  std::string partition;
  std::string actor_id;
  std::optional<ScopeMap> allowed_scopes;
};

// Named points of the pipeline (push.md §6 conventions, H0–H6), passed in
// this order by a push that reaches them. Race tests park a push at one.
enum class PushHookPoint {
  after_optimistic_miss,  // H0: the pool-level idempotency lookup found nothing
  after_begin,            // H1: transaction open, no lock
  after_lock,             // H2: partition lock held, candidate savepoint open
  after_locked_recheck,   // H3: the locked idempotency recheck found nothing
  after_operations,       // H4: every operation staged, before the whole-commit validator
  before_append_commit,   // H5
  before_commit,          // H6: also on the rejection path, before its commit
};
std::string_view push_hook_point_name(PushHookPoint point);

// A row validator refused (§6.7), or a whole-commit validator refused
// (§6.8) at `op_index`. The code is the host's own: empty, or starting with
// sync., blob., operation., presence. or client., is refused at construction
// (InvalidArgument).
class ValidationRejection : public SspError {
 public:
  ValidationRejection(std::string code, std::string message = {},
                      std::optional<std::string> details_json = std::nullopt);
  const std::string& code() const { return code_; }
  const std::optional<std::string>& details_json() const { return details_json_; }

 private:
  std::string code_;
  std::optional<std::string> details_json_;
};
class CommitValidationRejection : public ValidationRejection {
 public:
  CommitValidationRejection(std::int64_t op_index, std::string code, std::string message = {},
                            std::optional<std::string> details_json = std::nullopt);
  std::int64_t op_index() const { return op_index_; }

 private:
  std::int64_t op_index_;
};

// Thrown by a validator to fail the push as a server failure instead of
// answering it: run_push rolls back, writes nothing and lets it through,
// where any other throw of a validator becomes a sync.constraint_violation
// record (push.md §4.1–§4.2). The reference driver throws it, with the cause
// nested, when a validator callback cannot be carried (a malformed answer, a
// closed connection); a host whose validator lost its own backend may too.
class PushAbandoned : public SspError {
 public:
  using SspError::SspError;
};

// What a row validator sees: the row that will persist (decoded, after the
// scope strip) and the stored row before this operation.
struct RowValidation {
  OperationKind op = OperationKind::upsert;
  std::string table;
  std::string row_id;
  std::optional<storage::Row> row;     // upsert only
  std::optional<storage::Row> stored;  // absent on insert
  std::string actor_id;
  std::string partition;
};
using RowValidator = std::function<void(const RowValidation&)>;

// One operation's evidence for the whole-commit validator.
struct OperationEvidence {
  std::int64_t op_index = 0;
  OperationKind op = OperationKind::upsert;
  std::string table;
  std::string row_id;
  std::optional<storage::Row> row;
  std::optional<storage::Row> stored;
  std::optional<std::int64_t> stored_server_version;
  std::optional<std::int64_t> next_server_version;
};

// Candidate state, read through the push transaction (staged writes
// included). The only correct way for a validator to read (push.md §4.3).
class CommitReader {
 public:
  virtual ~CommitReader() = default;
  virtual std::optional<storage::StoredRow> get_row(const std::string& table,
                                                    const std::string& row_id) = 0;
  virtual std::vector<storage::StoredRow> scan_rows(const storage::RowScan& scan) = 0;
};

struct CommitValidation {
  std::string client_id;
  std::string client_commit_id;
  std::string actor_id;
  std::string partition;
  std::vector<OperationEvidence> operations;
  CommitReader& read;
};
using CommitValidator = std::function<void(const CommitValidation&)>;

// Sent after an applied commit with at least one change is committed.
struct CommitNotification {
  std::string partition;
  std::int64_t commit_seq = 0;
  std::int64_t created_at_ms = 0;
  std::string actor_id;
  std::vector<storage::Change> changes;
};

// The reference's default operation cap per request (§6.1).
inline constexpr std::int64_t kDefaultMaxOperationsPerRequest = 500;

struct PushOptions {
  // Milliseconds; required. Read once per push that runs the pipeline, after
  // the partition lock and the locked recheck (DECISION Q6, docs/decisions.md):
  // the commit's createdAtMs and the stored result's recordedAtMs.
  std::function<std::int64_t()> clock;
  // The request-level operation cap run_push applies to its own commit
  // (check_push_request); a host checks the whole request first.
  std::int64_t max_operations_per_request = kDefaultMaxOperationsPerRequest;
  std::map<std::string, RowValidator> row_validators;  // by table
  CommitValidator commit_validator;                     // optional
  // Optional. After the commit of an applied push with at least one change,
  // outside the lock, in no order across pushes (DECISION Q7); its throw is
  // ignored.
  std::function<void(const CommitNotification&)> notify;
  std::function<void(PushHookPoint)> hook;               // tests only; unset costs nothing
  // A fresh cache identity per minted outcome; default: a random UUID.
  std::function<std::string()> new_cache_identity;
};

// A request refused as a whole before any commit is attempted (push.md §1.0;
// SSP2 §1.7, §6.1): nothing is read or written and nothing is persisted, so a
// corrected retry runs the pipeline. code() is one of
//  - sync.invalid_client_id: a clientId starting with `["remote-command",`
//    (the remote-command key space, push.md §5);
//  - sync.empty_commit: a commit without operations (§6.1);
//  - sync.invalid_request: an empty clientId or clientCommitId (§2.3);
//  - sync.too_many_operations: more operations across the request's commits
//    than the cap.
class PushRequestError : public SspError {
 public:
  PushRequestError(std::string code, const std::string& message);
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

enum class PushAnswerStatus { applied, cached, rejected };

// The PUSH_RESULT frame (§6.3).
struct PushAnswer {
  PushAnswerStatus status = PushAnswerStatus::applied;
  std::optional<std::int64_t> commit_seq;
  std::vector<OperationResult> results;
  // The answer is an outcome another delivery stored: every cached answer,
  // and a rejection that found a stored result in place (an idempotency hit,
  // or a racer's outcome winning the insert-if-absent).
  bool replayed = false;
};

}  // namespace ssp::push
