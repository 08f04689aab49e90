// A storage that cannot serialize a push or finalize its rejection fails the
// push before any row is written (SSP2 §6.8 "Serialization is mandatory";
// design notes push.md §1.1 step 4, §6.1 item 9). The C++ interface has
// every method, so "missing" here means "refuses": the candidate's own
// storage behind a decorator whose lock or finalization throws.
#include <gmock/gmock.h>

#include "harness/push_fixtures.hpp"

namespace ssp::harness {
namespace {

using push::PushAnswerStatus;

enum class Refusal { lock, finalize_rejection };

class RefusingTransaction final : public storage::PushTransaction {
 public:
  RefusingTransaction(std::unique_ptr<storage::PushTransaction> inner, Refusal refusal)
      : inner_(std::move(inner)), refusal_(refusal) {}
  const std::string& partition() const override { return inner_->partition(); }
  void lock_partition_for_push() override {
    if (refusal_ == Refusal::lock) throw StorageError("this storage cannot serialize pushes");
    inner_->lock_partition_for_push();
  }
  std::optional<push::StoredPushResult> get_push_result(const std::string& client_id,
                                                        const std::string& commit_id) override {
    return inner_->get_push_result(client_id, commit_id);
  }
  std::optional<storage::StoredRow> get_row(const std::string& table,
                                            const std::string& row_id) override {
    return inner_->get_row(table, row_id);
  }
  std::vector<storage::StoredRow> scan_rows(const storage::RowScan& scan) override {
    return inner_->scan_rows(scan);
  }
  void upsert_row(const std::string& table, const storage::StoredRow& row,
                  std::int64_t op_index) override {
    inner_->upsert_row(table, row, op_index);
  }
  void delete_row(const std::string& table, const std::string& row_id) override {
    inner_->delete_row(table, row_id);
  }
  std::int64_t append_commit(const storage::CommitEntry& entry) override {
    return inner_->append_commit(entry);
  }
  void put_push_result(const std::string& client_id, const std::string& commit_id,
                       const push::StoredPushResult& result) override {
    inner_->put_push_result(client_id, commit_id, result);
  }
  void commit_rejected_push_result(const std::string& client_id, const std::string& commit_id,
                                   const push::StoredPushResult& result) override {
    if (refusal_ == Refusal::finalize_rejection) {
      throw StorageError("this storage cannot finalize a rejection");
    }
    inner_->commit_rejected_push_result(client_id, commit_id, result);
  }
  void commit() override { inner_->commit(); }
  void rollback() noexcept override { inner_->rollback(); }

 private:
  std::unique_ptr<storage::PushTransaction> inner_;
  Refusal refusal_;
};

class RefusingStorage final : public storage::ServerStorage {
 public:
  RefusingStorage(storage::ServerStorage& inner, Refusal refusal)
      : inner_(inner), refusal_(refusal) {}
  storage::SchemaReport ensure_schema(const storage::CompiledSchema& schema) override {
    return inner_.ensure_schema(schema);
  }
  storage::SchemaReport preview_schema(const storage::CompiledSchema& schema) override {
    return inner_.preview_schema(schema);
  }
  std::optional<storage::StoredRow> get_row(const std::string& partition, const std::string& table,
                                            const std::string& row_id) override {
    return inner_.get_row(partition, table, row_id);
  }
  void upsert_row(const std::string& partition, const std::string& table,
                  const storage::StoredRow& row) override {
    inner_.upsert_row(partition, table, row);
  }
  std::optional<storage::Row> read_projection(const std::string& partition,
                                              const std::string& table,
                                              const std::string& row_id) override {
    return inner_.read_projection(partition, table, row_id);
  }
  std::unique_ptr<storage::PushTransaction> begin(const std::string& partition) override {
    return std::make_unique<RefusingTransaction>(inner_.begin(partition), refusal_);
  }
  std::optional<push::StoredPushResult> get_push_result(const std::string& partition,
                                                        const std::string& client_id,
                                                        const std::string& commit_id) override {
    return inner_.get_push_result(partition, client_id, commit_id);
  }
  std::int64_t get_max_commit_seq(const std::string& partition) override {
    return inner_.get_max_commit_seq(partition);
  }
  std::vector<storage::Commit> read_commit_window(const std::string& partition,
                                                  std::int64_t after_seq,
                                                  std::int64_t limit) override {
    return inner_.read_commit_window(partition, after_seq, limit);
  }

 private:
  storage::ServerStorage& inner_;
  Refusal refusal_;
};

class PushFailClosed : public PushTest {};
SSP_SQL_BACKENDS(PushFailClosed);

TEST_P(PushFailClosed, PUSH_9_AStorageThatCannotLockFailsBeforeAnyRowWrite) {
  record_spec("§6.8", "PUSH-9");
  RefusingStorage refusing(storage(), Refusal::lock);
  int validations = 0;
  auto counting = options();
  counting.row_validators["tasks"] = [&](const push::RowValidation&) { ++validations; };
  const auto the_commit = commit("k1", {upsert("tasks", "t1", task("t1", "p1"))});
  EXPECT_THROW(candidate().push().push(refusing, schema(), actor(), the_commit, counting),
               StorageError);
  EXPECT_EQ(validations, 0);
  EXPECT_FALSE(row("tasks", "t1"));
  EXPECT_EQ(max_seq(), 0);
  EXPECT_EQ(count("sync_push_results"), 0);
  // Nothing was stored, so the same commit applies on a storage that can lock.
  EXPECT_EQ(apply(the_commit), 1);
}

TEST_P(PushFailClosed, PUSH_9_AStorageThatCannotFinalizeARejectionStoresNothing) {
  record_spec("§6.8", "PUSH-9");
  ASSERT_EQ(apply(commit("seed", {upsert("tasks", "t1", task("t1", "p1", "a"))})), 1);
  RefusingStorage refusing(storage(), Refusal::finalize_rejection);
  const auto conflicting = commit("k1", {upsert("tasks", "t2", task("t2", "p1")),
                                         upsert("tasks", "t1", task("t1", "p1", "b"), 0)});
  EXPECT_THROW(candidate().push().push(refusing, schema(), actor(), conflicting, options()),
               StorageError);
  EXPECT_FALSE(row("tasks", "t2"));
  EXPECT_EQ(count("sync_push_results"), 1);  // the seed's
  EXPECT_EQ(max_seq(), 1);
  // The storage is not wedged, and the retry mints the rejection itself.
  const auto retry = push(conflicting);
  EXPECT_EQ(retry.status, PushAnswerStatus::rejected);
  EXPECT_FALSE(retry.replayed);
}

}  // namespace
}  // namespace ssp::harness
