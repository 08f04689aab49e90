// The fixture of the push path's storage tests (design/storage.md §4.1–§5.3,
// §6 D- and E-; design/push.md §1.2–§2.2): a StorageTest whose candidate has
// the push area, with the example schema served, and small helpers that
// assert each candidate answer before using it.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "harness/storage_fixtures.hpp"
#include "harness/watchdog.hpp"
#include "ssp/push/push_result.hpp"
#include "ssp/storage/commit_log.hpp"
#include "ssp/storage/push_transaction.hpp"

namespace ssp::harness {

class PushStorageTest : public StorageTest {
 protected:
  void SetUp() override {
    StorageTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SSP_REQUIRE_CAPABILITY(candidate(), Capability::push);
    SSP_REQUIRE_CAPABILITY(candidate(), Capability::transactions);
    storage().ensure_schema(example_compiled());
  }

  // A push transaction on `partition` of the default storage; fails the test
  // (and returns null) when the candidate returns none.
  std::unique_ptr<storage::PushTransaction> begin(const std::string& partition = "acme") {
    auto tx = storage().begin(partition);
    EXPECT_NE(tx, nullptr) << "begin returned no transaction";
    return tx;
  }

  // The commit seqs read_commit_window answers for `partition`, from 0.
  std::vector<std::int64_t> commit_seqs(const std::string& partition = "acme") {
    std::vector<std::int64_t> seqs;
    for (const auto& commit : storage().read_commit_window(partition, 0, 1000)) {
      seqs.push_back(commit.commit_seq);
    }
    return seqs;
  }
};

// A commit entry with `changes`, keyed (client "c1", `commit_id`).
inline storage::CommitEntry commit_entry(const std::string& commit_id,
                                         std::vector<storage::Change> changes = {}) {
  return storage::CommitEntry{"c1", commit_id, "actor-1", 1'700'000'000'000, std::move(changes)};
}

// An applied result at `seq` with one applied record.
inline push::StoredPushResult applied_result(std::int64_t seq) {
  push::StoredPushResult result;
  result.status = push::PushStatus::applied;
  result.commit_seq = seq;
  result.recorded_at_ms = 1'700'000'000'123;
  result.results = {push::OperationResult{}};
  return result;
}

// A rejected result whose one record is an error `code` at `op_index`.
inline push::StoredPushResult rejected_result(const std::string& code, std::int64_t op_index = 0) {
  push::StoredPushResult result;
  result.status = push::PushStatus::rejected;
  result.cache_identity = "cache-" + code;
  push::OperationResult record;
  record.op_index = op_index;
  record.status = push::OperationStatus::error;
  record.code = code;
  record.message = "refused";
  result.results = {record};
  return result;
}

// Runs `work` on another thread. The caller waits for it with finish().
class Background {
 public:
  explicit Background(std::function<void()> work)
      : future_(std::async(std::launch::async, std::move(work))) {}
  ~Background() {
    if (future_.valid()) future_.wait();
  }
  bool done() { return future_.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }
  // True when the work ended before the watchdog; rethrows its exception.
  bool finish(std::chrono::seconds watchdog = kWatchdog) {
    if (future_.wait_for(watchdog) != std::future_status::ready) return false;
    future_.get();
    return true;
  }

 private:
  std::future<void> future_;
};

}  // namespace ssp::harness
