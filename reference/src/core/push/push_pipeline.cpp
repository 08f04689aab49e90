// run_push: push.md §1.1 steps 1–15 in the fixed order of SSP2 §6.8–§6.9,
// without reactions (docs/decisions.md, "Push pipeline"). One operation is
// push_operation.cpp; §3.4 is push_authorization.cpp.
#include "ssp/push/push_pipeline.hpp"

#include <openssl/rand.h>

#include <array>
#include <exception>
#include <map>
#include <utility>

#include "push_operation.hpp"
#include "push_pipeline_builder.hpp"
#include "ssp/encoding/json_text.hpp"
#include "ssp/errors/errors.hpp"

namespace ssp::push {

namespace {

constexpr std::string_view kConstraintViolation = "sync.constraint_violation";

// A version 4 UUID from OpenSSL's generator (push.md §5: a random id per
// minted outcome).
std::string random_uuid() {
  std::array<unsigned char, 16> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    throw SspError("no randomness available for a push result's cache identity");
  }
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40);
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    text += kHex[bytes[i] >> 4];
    text += kHex[bytes[i] & 0x0f];
  }
  return text;
}

// The whole-commit validator's reader (push.md §4.2): the transaction's own
// reads, with the bounds §6.8 names checked here. It remembers the first
// failure it threw, so that a validator letting it escape fails the push as
// a server error rather than a persisted rejection (DECISION Q4).
class TransactionReader final : public CommitReader {
 public:
  TransactionReader(storage::PushTransaction& tx, const storage::CompiledSchema& schema)
      : tx_(tx), schema_(schema) {}

  std::optional<storage::StoredRow> get_row(const std::string& table,
                                            const std::string& row_id) override {
    return remembering([&] {
      require_table(table);
      return tx_.get_row(table, row_id);
    });
  }

  std::vector<storage::StoredRow> scan_rows(const storage::RowScan& scan) override {
    return remembering([&] {
      require_table(scan.table);
      if (scan.limit < 1 || scan.limit > 1000) {
        throw InvalidArgument("commit validator scan limit must be an integer from 1 to 1,000");
      }
      return tx_.scan_rows(scan);
    });
  }

  const std::exception_ptr& failure() const { return failure_; }

 private:
  void require_table(const std::string& table) const {
    if (schema_.find(table) == nullptr) {
      throw InvalidArgument("commit validator requested unknown table \"" + table + "\"");
    }
  }

  template <typename Read>
  auto remembering(Read read) -> decltype(read()) {
    try {
      return read();
    } catch (...) {
      if (!failure_) failure_ = std::current_exception();
      throw;
    }
  }

  storage::PushTransaction& tx_;
  const storage::CompiledSchema& schema_;
  std::exception_ptr failure_;
};

// Names the rows `operations` will read (PushTransaction::prefetch_rows), so
// that a storage can read them in one go.
void name_rows_ahead(storage::PushTransaction& tx, const std::vector<PushOperation>& operations) {
  std::map<std::string, std::vector<std::string>> by_table;
  for (const PushOperation& operation : operations) {
    by_table[operation.table].push_back(operation.row_id);
  }
  for (const auto& [table, row_ids] : by_table) tx.prefetch_rows(table, row_ids);
}

// `push of commit "c" from client "k" to partition "p"`, each id as a JSON
// string: they are the client's text and may hold quotes or line breaks.
std::string describe_push(const PushActor& actor, const PushCommit& commit) {
  std::string out = "push of commit ";
  append_json_string(out, commit.client_commit_id);
  out += " from client ";
  append_json_string(out, commit.client_id);
  out += " to partition ";
  append_json_string(out, actor.partition);
  return out;
}

PushAnswer replay(const StoredPushResult& stored) {
  PushAnswer answer;
  answer.status =
      stored.status == PushStatus::applied ? PushAnswerStatus::cached : PushAnswerStatus::rejected;
  if (stored.status == PushStatus::applied) answer.commit_seq = stored.commit_seq;
  answer.results = stored.results;
  answer.replayed = true;
  return answer;
}

// §6.3: the answer to an unreadable stored result. Never persisted.
PushAnswer cache_miss(const IdempotencyCacheMiss& miss) {
  OperationResult record =
      error_record(0, std::string(IdempotencyCacheMiss::code()), miss.what());
  record.retryable = true;
  PushAnswer answer;
  answer.status = PushAnswerStatus::rejected;
  answer.results.push_back(std::move(record));
  return answer;
}

class Pipeline {
 public:
  Pipeline(storage::ServerStorage& storage, const storage::CompiledSchema& schema,
           const PushActor& actor, const PushCommit& commit, const PushOptions& options,
           const OperationBuilder* build = nullptr)
      : storage_(storage),
        schema_(schema),
        actor_(actor),
        commit_(commit),
        options_(options),
        build_(build) {}

  PushAnswer run() {
    // Step 1: the optimistic lookup, outside any transaction.
    try {
      if (auto stored = storage_.get_push_result(actor_.partition, commit_.client_id,
                                                 commit_.client_commit_id)) {
        return replay(*stored);
      }
    } catch (const IdempotencyCacheMiss& miss) {
      return cache_miss(miss);
    }
    hook(PushHookPoint::after_optimistic_miss);

    // Step 3 (step 4, fail closed, is the interface: docs/decisions.md).
    const auto tx = storage_.begin(actor_.partition);
    try {
      hook(PushHookPoint::after_begin);
      tx->lock_partition_for_push();  // step 5
      hook(PushHookPoint::after_lock);
      if (!build_) name_rows_ahead(*tx, commit_.operations);
      std::optional<StoredPushResult> stored;  // step 6
      try {
        stored = tx->get_push_result(commit_.client_id, commit_.client_commit_id);
      } catch (const IdempotencyCacheMiss& miss) {
        tx->rollback();
        return cache_miss(miss);
      }
      if (stored) {
        tx->rollback();
        return replay(*stored);
      }
      hook(PushHookPoint::after_locked_recheck);
      created_at_ms_ = options_.clock();  // step 2, after the lock (DECISION Q6)
      if (build_) {
        built_ = (*build_)(*tx);
        name_rows_ahead(*tx, built_);
      }
      tx->stage_writes();
      return apply(*tx);
    } catch (const storage::StorageConstraintError& constraint) {
      // Step 12: the database's text is never carried.
      try {
        return finalize_rejection(*tx, error_record(constraint.op_index(),
                                                    std::string(kConstraintViolation),
                                                    "write violates a relational constraint"));
      } catch (...) {
        tx->rollback();
        throw;
      }
    } catch (...) {
      tx->rollback();
      throw;
    }
  }

 private:
  void hook(PushHookPoint point) const {
    if (options_.hook) options_.hook(point);
  }

  std::string new_cache_identity() const {
    return options_.new_cache_identity ? options_.new_cache_identity() : random_uuid();
  }

  // Steps 8–9, 13–15.
  PushAnswer apply(storage::PushTransaction& tx) {
    std::vector<storage::Change> changes;
    std::vector<OperationEvidence> evidence;
    const auto& operations = build_ ? built_ : commit_.operations;
    for (std::size_t i = 0; i < operations.size(); ++i) {
      OperationOutcome outcome = apply_operation(tx, schema_, actor_, options_, operations[i],
                                                 static_cast<std::int64_t>(i));
      if (outcome.terminating) {
        tx.flush_writes();  // an earlier operation's constraint violation comes first
        return finalize_rejection(tx, std::move(*outcome.terminating));
      }
      if (outcome.change) changes.push_back(std::move(*outcome.change));
      evidence.push_back(std::move(outcome.evidence));
    }
    hook(PushHookPoint::after_operations);
    if (options_.commit_validator) {
      tx.flush_writes();  // a constraint violation comes before the validator's verdict
      if (auto record = validate_commit(tx, std::move(evidence))) {
        return finalize_rejection(tx, std::move(*record));
      }
    }

    hook(PushHookPoint::before_append_commit);
    storage::CommitEntry entry{commit_.client_id, commit_.client_commit_id, actor_.actor_id,
                               created_at_ms_, std::move(changes)};
    const std::int64_t commit_seq = tx.append_commit(entry);
    StoredPushResult stored;
    stored.status = PushStatus::applied;
    stored.commit_seq = commit_seq;
    stored.recorded_at_ms = created_at_ms_;
    stored.cache_identity = new_cache_identity();
    for (std::size_t i = 0; i < operations.size(); ++i) {
      OperationResult applied;
      applied.op_index = static_cast<std::int64_t>(i);
      stored.results.push_back(std::move(applied));
    }
    tx.put_push_result(commit_.client_id, commit_.client_commit_id, stored);
    hook(PushHookPoint::before_commit);
    tx.commit();

    if (options_.notify && !entry.changes.empty()) {
      // The commit is durable: a failing notifier cannot undo it, and
      // subscribers catch up by commitSeq (§6.4), so its throw is dropped.
      try {
        options_.notify(CommitNotification{actor_.partition, commit_seq, created_at_ms_,
                                           actor_.actor_id, std::move(entry.changes)});
      } catch (...) {
      }
    }
    PushAnswer answer;
    answer.status = PushAnswerStatus::applied;
    answer.commit_seq = commit_seq;
    answer.results = std::move(stored.results);
    return answer;
  }

  // Step 9, §4.2 outcomes: nothing when the validator accepts.
  std::optional<OperationResult> validate_commit(storage::PushTransaction& tx,
                                                 std::vector<OperationEvidence> evidence) {
    const auto count = static_cast<std::int64_t>(evidence.size());
    TransactionReader reader(tx, schema_);
    const CommitValidation input{commit_.client_id,  commit_.client_commit_id, actor_.actor_id,
                                 actor_.partition,   std::move(evidence),      reader};
    const auto threw = [&](const std::string& what) -> OperationResult {
      if (reader.failure()) std::rethrow_exception(reader.failure());
      return error_record(0, std::string(kConstraintViolation),
                          "whole-commit validator threw: " + what);
    };
    try {
      options_.commit_validator(input);
      return std::nullopt;
    } catch (const PushAbandoned&) {
      throw;
    } catch (const CommitValidationRejection& rejection) {
      if (rejection.op_index() < 0 || rejection.op_index() >= count) {
        return error_record(0, std::string(kConstraintViolation),
                            "commit validator rejection names unavailable opIndex " +
                                std::to_string(rejection.op_index()));
      }
      return rejection_record(rejection.op_index(), rejection);
    } catch (const ValidationRejection& rejection) {
      return rejection_record(0, rejection);
    } catch (const std::exception& thrown) {
      return threw(thrown.what());
    } catch (...) {
      return threw("unknown exception");
    }
  }

  // Step 11: the rejection is stored under the still-held lock, then the
  // canonical stored outcome (ours, or a racer's) is the answer.
  PushAnswer finalize_rejection(storage::PushTransaction& tx, OperationResult record) {
    StoredPushResult ours;
    ours.status = PushStatus::rejected;
    ours.recorded_at_ms = created_at_ms_;
    ours.cache_identity = new_cache_identity();
    ours.results.push_back(std::move(record));
    hook(PushHookPoint::before_commit);
    tx.commit_rejected_push_result(commit_.client_id, commit_.client_commit_id, ours);
    std::optional<StoredPushResult> canonical;
    try {
      canonical = storage_.get_push_result(actor_.partition, commit_.client_id,
                                           commit_.client_commit_id);
    } catch (const IdempotencyCacheMiss& miss) {
      return cache_miss(miss);
    }
    if (!canonical) throw StorageError("push rejection finalization did not persist an outcome");
    PushAnswer answer = replay(*canonical);
    answer.replayed = canonical->cache_identity != ours.cache_identity;
    return answer;
  }

  storage::ServerStorage& storage_;
  const storage::CompiledSchema& schema_;
  const PushActor& actor_;
  const PushCommit& commit_;
  const PushOptions& options_;
  const OperationBuilder* build_;
  std::vector<PushOperation> built_;  // build_'s operations, under the lock
  std::int64_t created_at_ms_ = 0;
};

// A StorageError names the push it failed: the backend's message names a
// statement, and an operator reading the log needs the commit. Its first
// line stays free of SQL (StorageError's contract).
template <typename Run>
PushAnswer naming_the_push(const PushActor& actor, const PushCommit& commit, Run run) {
  try {
    return run();
  } catch (const StorageError& failure) {
    throw StorageError(describe_push(actor, commit) + " failed: " + failure.what());
  }
}

}  // namespace

PushAnswer run_push(storage::ServerStorage& storage, const storage::CompiledSchema& schema,
                    const PushActor& actor, const PushCommit& commit, const PushOptions& options) {
  if (!options.clock) throw InvalidArgument("PushOptions::clock is required");
  check_push_request(std::span<const PushCommit>(&commit, 1), options.max_operations_per_request);
  return naming_the_push(actor, commit,
                         [&] { return Pipeline(storage, schema, actor, commit, options).run(); });
}

PushAnswer run_push_building(storage::ServerStorage& storage, const storage::CompiledSchema& schema,
                             const PushActor& actor, const PushCommit& commit,
                             const PushOptions& options, const OperationBuilder& build) {
  if (!options.clock) throw InvalidArgument("PushOptions::clock is required");
  return naming_the_push(actor, commit, [&] {
    return Pipeline(storage, schema, actor, commit, options, &build).run();
  });
}

}  // namespace ssp::push
