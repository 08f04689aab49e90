// The reference's partition lock against upstream's, on one PostgreSQL
// database (docs/decisions.md, push.md Q2). The reference locks a push's
// partition by updating the partition's sync_partitions row, an upsert whose
// conflict action rewrites it unchanged (postgres_push_session.cpp,
// lock_partition); upstream 0.22 locks the same
// row with SELECT … FOR UPDATE. The reference relies on the two row locks
// excluding each other, so that a reference server and an upstream one on
// one database still push to a partition one at a time.
//
// Each test holds one lock in an open transaction, asks for the other on a
// second connection, and orders its next step after the database shows that
// connection waiting for a lock (TestDatabase::shows_sessions_waiting, by the
// connection's application_name), never after a sleep. It then commits the
// holder: the waiter proceeds and reads the counter the holder committed.
// kWatchdog only bounds a hang; both connections' lock_timeout is that long
// too, so a lock that never comes fails the test instead of hanging it.
#include <gmock/gmock.h>

#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <pqxx/pqxx>
#include <string>

#include "harness/fixtures/push_storage_fixtures.hpp"
#include "harness/util/eventually.hpp"
#include "harness/util/watchdog.hpp"
#include "ssp/postgres/postgres_server_storage.hpp"

namespace ssp::harness {
namespace {

constexpr const char* kPartition = "acme";
constexpr std::int64_t kWatchdogMs =
    std::chrono::duration_cast<std::chrono::milliseconds>(kWatchdog).count();

template <typename T>
bool is_ready(const std::future<T>& answer) {
  return answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

class ReferencePartitionLock : public PushStorageTest {
 protected:
  // A reference storage whose connections the database shows as
  // `<schema>/reference`, and the partition's row at max_commit_seq 1,
  // committed: SELECT … FOR UPDATE locks only a row that exists.
  void SetUp() override {
    PushStorageTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    storage::ServerStorageOptions options;
    options.lock_wait_ms = kWatchdogMs;
    reference_ = storage::open_postgres_server_storage(dsn_of("reference"),
                                                       database().location().pg_schema, options);
    reference_->ensure_schema(example_compiled());
    auto tx = reference_->begin(kPartition);
    ASSERT_NE(tx, nullptr);
    tx->lock_partition_for_push();
    ASSERT_EQ(tx->append_commit(commit_entry("seed")), 1);
    tx->commit();
  }

  // The application_name of this test's connection `who`, and a DSN that
  // connects with it.
  std::string name_of(const std::string& who) {
    return database().location().pg_schema + "/" + who;
  }
  std::string dsn_of(const std::string& who) {
    return database().location().pg_dsn + " application_name=" + name_of(who);
  }

  // A connection that locks as upstream does, as `<schema>/upstream`.
  std::unique_ptr<pqxx::connection> upstream_connection() {
    auto connection = std::make_unique<pqxx::connection>(dsn_of("upstream"));
    pqxx::nontransaction settings(*connection);
    settings.exec("SET search_path TO " + connection->quote_name(database().location().pg_schema));
    settings.exec("SET lock_timeout = " + std::to_string(kWatchdogMs));
    return connection;
  }

  // Upstream's lock in `txn`; returns the counter it read under the lock.
  static std::int64_t lock_as_upstream(pqxx::work& txn) {
    return txn
        .exec_params1("SELECT max_commit_seq FROM sync_partitions WHERE partition = $1 FOR UPDATE",
                      kPartition)[0]
        .as<std::int64_t>();
  }

  // Whether `who` waits for a lock before `locked` is ready (its lock
  // call returned): polls until the database shows it waiting or it got the
  // lock; false when it got the lock first or the watchdog expired.
  template <typename T>
  bool waits(const std::string& who, const std::future<T>& locked) {
    return eventually(
               [&] {
                 return is_ready(locked) || database().shows_sessions_waiting({name_of(who)});
               },
               kWatchdog) &&
           !is_ready(locked);
  }

  std::unique_ptr<storage::ServerStorage> reference_;
};
INSTANTIATE_TEST_SUITE_P(, ReferencePartitionLock, ::testing::Values(Backend::postgres),
                         storage_param_name);

TEST_P(ReferencePartitionLock, PUSH_REF_7_ASelectForUpdateWaitsForTheReferencesLock) {
  record_spec("§6.3, §6.8", "PUSH-REF-7");
  auto holder = reference_->begin(kPartition);
  ASSERT_NE(holder, nullptr);
  holder->lock_partition_for_push();

  const auto upstream = upstream_connection();
  std::future<std::int64_t> upstream_read = std::async(std::launch::async, [&] {
    pqxx::work txn(*upstream);
    const std::int64_t seq = lock_as_upstream(txn);
    txn.commit();
    return seq;
  });
  // Only the lock is held while upstream is seen waiting: it is what excludes.
  const bool waited = waits("upstream", upstream_read);
  EXPECT_EQ(holder->append_commit(commit_entry("k1")), 2);
  holder->commit();  // whatever was seen: the waiter must be let go
  EXPECT_TRUE(waited) << "SELECT … FOR UPDATE did not wait for the reference's lock";
  ASSERT_EQ(upstream_read.wait_for(kWatchdog), std::future_status::ready);
  EXPECT_EQ(upstream_read.get(), 2) << "upstream's lock read the counter the reference committed";
}

TEST_P(ReferencePartitionLock, PUSH_REF_7_TheReferencesLockWaitsForASelectForUpdate) {
  record_spec("§6.3, §6.8", "PUSH-REF-7");
  const auto upstream = upstream_connection();
  pqxx::work holder(*upstream);
  EXPECT_EQ(lock_as_upstream(holder), 1);

  // `locked` is set once lock_partition_for_push returns: the test watches
  // the lock call itself, not the append after it, which updates the row too.
  std::promise<void> got_lock;
  std::future<void> locked = got_lock.get_future();
  std::future<std::int64_t> reference_seq = std::async(std::launch::async, [&] {
    auto tx = reference_->begin(kPartition);
    if (tx == nullptr) return std::int64_t{0};
    try {
      tx->lock_partition_for_push();
    } catch (...) {
      got_lock.set_exception(std::current_exception());  // ends the wait for it at once
      throw;
    }
    got_lock.set_value();
    const std::int64_t seq = tx->append_commit(commit_entry("k2"));
    tx->commit();
    return seq;
  });
  // Only the lock is held while the reference is seen waiting: it is what
  // excludes, not a row version the holder wrote.
  const bool waited = waits("reference", locked);
  // Upstream's append then advances the counter it locked.
  holder.exec_params0(
      "UPDATE sync_partitions SET max_commit_seq = max_commit_seq + 1 WHERE partition = $1",
      kPartition);
  holder.commit();  // whatever was seen: the waiter must be let go
  EXPECT_TRUE(waited) << "the reference's lock did not wait for SELECT … FOR UPDATE";
  ASSERT_EQ(reference_seq.wait_for(kWatchdog), std::future_status::ready);
  EXPECT_EQ(reference_seq.get(), 3) << "the reference's lock read the counter upstream committed";
  EXPECT_EQ(reference_->get_max_commit_seq(kPartition), 3);
}

}  // namespace
}  // namespace ssp::harness
