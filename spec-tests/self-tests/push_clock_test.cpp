// When the reference reads its clock in a push (DECISION Q6,
// docs/decisions.md): once, after the partition lock and the locked recheck,
// and never for a replay. The driver protocol carries the clock as a value, so
// this pins run_push itself, in process.
#include <gmock/gmock.h>

#include "harness/fixtures/push_fixtures.hpp"
#include "ssp/push/push_pipeline.hpp"

namespace ssp::harness {
namespace {

using push::PushAnswerStatus;
using push::PushHookPoint;

class ReferencePushClock : public PushTest {};
SSP_SQL_BACKENDS(ReferencePushClock);

TEST_P(ReferencePushClock, PUSH_REF_2_TheClockIsReadOnceAfterTheLockedRecheckAndNeverForAReplay) {
  record_spec("§6.8", "PUSH-REF-2");
  int reads = 0;
  std::map<PushHookPoint, int> reads_at;
  push::PushOptions counting = options();
  counting.clock = [&] { return 1000 + reads++; };
  counting.hook = [&](PushHookPoint point) { reads_at[point] = reads; };
  const auto the_commit = commit("k1", {upsert("tasks", "t1", task("t1", "p1"))});
  const auto answer = push::run_push(storage(), schema(), actor(), the_commit, counting);
  ASSERT_EQ(answer.status, PushAnswerStatus::applied);
  EXPECT_EQ(reads, 1);
  EXPECT_EQ(reads_at[PushHookPoint::after_locked_recheck], 0) << "read before the recheck";
  EXPECT_EQ(reads_at[PushHookPoint::after_operations], 1) << "not read before the operations";
  EXPECT_EQ(push::run_push(storage(), schema(), actor(), the_commit, counting).status,
            PushAnswerStatus::cached);
  EXPECT_EQ(reads, 1) << "a replay read the clock";
}

}  // namespace
}  // namespace ssp::harness
