// A reader of the commit log never sees a hole below the highest seq it is
// told of (SSP2 §2.1, §4.5; design notes push.md §6.2 R12), while pushers on
// connections of their own commit beside it; also where PostgreSQL's default
// isolation is REPEATABLE READ (R11).
#include <gmock/gmock.h>

#include <atomic>
#include <latch>
#include <thread>

#include "harness/backends/default_isolation.hpp"
#include "harness/fixtures/push_fixtures.hpp"

namespace ssp::harness {
namespace {

class VisiblePrefix : public PushTest {
 protected:
  // Four pushers, ten pushes each, and a reader, every one on a connection of
  // its own through `location`, released together.
  void expect_no_hole_while_pushing(const DatabaseLocation& location);
};
SSP_SQL_BACKENDS(VisiblePrefix);

TEST_P(VisiblePrefix, PUSH_R12_AReaderNeverSeesAHoleBelowTheMaxCommitSeq) {
  record_spec("§2.1, §4.5", "PUSH-R12");
  expect_no_hole_while_pushing(database().location());
}

// Isolation levels are PostgreSQL's: SQLite's transactions are serializable.
class VisiblePrefixUnderRepeatableRead : public VisiblePrefix {};
INSTANTIATE_TEST_SUITE_P(, VisiblePrefixUnderRepeatableRead, ::testing::Values(Backend::postgres),
                         storage_param_name);

TEST_P(VisiblePrefixUnderRepeatableRead, PUSH_R11_AReaderStillSeesNoHoleAndEveryPushApplies) {
  record_spec("§2.1, §4.5, §6.3", "PUSH-R11");
  expect_no_hole_while_pushing(with_default_isolation(database().location(), "repeatable read"));
}

void VisiblePrefix::expect_no_hole_while_pushing(const DatabaseLocation& location) {
  constexpr int kPushers = 4;
  constexpr int kPushesEach = 10;
  // The pushers' storages, then the reader's.
  std::vector<std::unique_ptr<storage::ServerStorage>> storages;
  for (int i = 0; i <= kPushers; ++i) {
    storages.push_back(candidate().open_server_storage(location, {}));
    ASSERT_NE(storages.back(), nullptr);
    storages.back()->ensure_schema(schema());
  }
  storage::ServerStorage& reader = *storages.back();
  std::latch start(kPushers + 1);
  std::atomic<int> pushers_left{kPushers};
  std::atomic<int> not_applied{0};
  // Encoded here, on the test's thread; the pushers only push.
  std::vector<std::vector<push::PushCommit>> commits(kPushers);
  for (int p = 0; p < kPushers; ++p) {
    for (int n = 0; n < kPushesEach; ++n) {
      const std::string key = "p" + std::to_string(p) + "-" + std::to_string(n);
      const std::string row = "t" + std::to_string(n % 3);
      commits[static_cast<std::size_t>(p)].push_back(
          commit(key, {upsert("tasks", row, task(row, "p1", key))}));
    }
  }
  push::PushOptions pushing;  // the fixture's clock counts: not for four threads at once
  pushing.clock = [] { return std::int64_t{1'000}; };
  std::vector<std::thread> pushers;
  for (int p = 0; p < kPushers; ++p) {
    pushers.emplace_back([&, p] {
      start.arrive_and_wait();
      for (const auto& one : commits[static_cast<std::size_t>(p)]) {
        try {
          const auto answer = candidate().push().push(*storages[static_cast<std::size_t>(p)],
                                                      schema(), actor(), one, pushing);
          if (answer.status != push::PushAnswerStatus::applied) ++not_applied;
        } catch (const std::exception&) {
          ++not_applied;
        }
      }
      --pushers_left;
    });
  }
  // The reader: the max seq, then the window up to it, until the pushers are
  // done and once more after.
  std::vector<std::string> holes;
  int reads = 0;
  start.arrive_and_wait();
  for (bool last = false; !last;) {
    last = pushers_left.load() == 0;
    const std::int64_t max = reader.get_max_commit_seq("acme");
    std::vector<std::int64_t> seen;
    if (max > 0) {
      for (const auto& commit : reader.read_commit_window("acme", 0, max)) {
        seen.push_back(commit.commit_seq);
      }
    }
    std::vector<std::int64_t> expected(static_cast<std::size_t>(max));
    for (std::int64_t i = 0; i < max; ++i) expected[static_cast<std::size_t>(i)] = i + 1;
    if (seen != expected && holes.size() < 5) {
      holes.push_back("max " + std::to_string(max) + ", seqs " + ::testing::PrintToString(seen));
    }
    ++reads;
  }
  for (auto& pusher : pushers) pusher.join();
  EXPECT_THAT(holes, ::testing::IsEmpty()) << "after " << reads << " reads";
  EXPECT_EQ(not_applied.load(), 0);
  EXPECT_EQ(max_seq(), kPushers * kPushesEach);
}

}  // namespace
}  // namespace ssp::harness
