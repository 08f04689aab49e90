// A reader of the commit log never sees a hole below the highest seq it is
// told of (SSP2 §2.1, §4.5; design notes push.md §6.2 R12), while pushers on
// connections of their own commit beside it.
#include <gmock/gmock.h>

#include <atomic>
#include <latch>
#include <thread>

#include "harness/push_fixtures.hpp"

namespace ssp::harness {
namespace {

class VisiblePrefix : public PushTest {};
SSP_SQL_BACKENDS(VisiblePrefix);

TEST_P(VisiblePrefix, PUSH_R12_AReaderNeverSeesAHoleBelowTheMaxCommitSeq) {
  record_spec("§2.1, §4.5", "PUSH-R12");
  constexpr int kPushers = 4;
  constexpr int kPushesEach = 10;
  std::vector<std::unique_ptr<storage::ServerStorage>> storages;
  for (int i = 0; i < kPushers; ++i) {
    storages.push_back(open());
    ASSERT_NE(storages.back(), nullptr);
    storages.back()->ensure_schema(schema());
  }
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
    const std::int64_t max = storage().get_max_commit_seq("acme");
    std::vector<std::int64_t> seen;
    if (max > 0) {
      for (const auto& commit : storage().read_commit_window("acme", 0, max)) {
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
