// A commit applies whole or not at all (SSP2 §6.4; design notes push.md
// §1.1 steps 11–12, §6.1 items 6–7).
#include <gmock/gmock.h>

#include "harness/fixtures/push_fixtures.hpp"

namespace ssp::harness {
namespace {

using push::PushAnswerStatus;

class PushAtomicity : public PushTest {
 protected:
  // Row counts of every table a push writes, but the stored results.
  std::vector<std::int64_t> footprint() {
    return {count("tasks"),       count("members"),       count("sync_row_scopes"),
            count("sync_commits"), count("sync_changes"), count("sync_change_scopes")};
  }
};
SSP_SQL_BACKENDS(PushAtomicity);

TEST_P(PushAtomicity, PUSH_6_ARejectionRollsBackEveryEarlierOperation) {
  record_spec("§6.4", "PUSH-6");
  ASSERT_EQ(apply(commit("seed", {upsert("tasks", "t0", task("t0", "p1", "a")),
                                  upsert("tasks", "t5", task("t5", "p2", "a"))})),
            1);
  const auto before = footprint();
  const auto results_before = count("sync_push_results");
  const auto answer = push(commit("k1", {upsert("tasks", "t1", task("t1", "p3")),
                                         upsert("tasks", "t0", task("t0", "p1", "b")),
                                         remove("tasks", "t5"),
                                         upsert("members", "m1", member("m1", "o1", "a@x")),
                                         upsert("tasks", "t0", task("t0", "p1", "c"), 1)}));
  EXPECT_EQ(answer.status, PushAnswerStatus::rejected);
  ASSERT_EQ(answer.results.size(), 1u);
  EXPECT_EQ(answer.results[0].op_index, 4);  // t0 is at version 2 by then: op 1's write
  EXPECT_EQ(answer.results[0].server_version, std::optional<std::int64_t>(2));
  EXPECT_EQ(answer.results[0].server_row, std::optional<storage::Bytes>(task("t0", "p1", "b")));
  EXPECT_EQ(footprint(), before);
  EXPECT_EQ(count("sync_push_results"), results_before + 1);
  EXPECT_FALSE(row("tasks", "t1"));
  ASSERT_TRUE(row("tasks", "t0"));
  EXPECT_EQ(version_of("tasks", "t0"), std::optional<std::int64_t>(1));
  EXPECT_EQ(payload_of("tasks", "t0"), std::optional<storage::Bytes>(task("t0", "p1", "a")));
  EXPECT_TRUE(row("tasks", "t5"));
  EXPECT_FALSE(row("members", "m1"));
  EXPECT_EQ(max_seq(), 1);
}

TEST_P(PushAtomicity, PUSH_7_AUniqueViolationIsAConstraintViolationAtItsOperation) {
  record_spec("§6.4", "PUSH-7");
  ASSERT_EQ(apply(commit("seed", {upsert("members", "m1", member("m1", "o1", "a@x"))})), 1);
  const auto before = footprint();
  const auto violating = commit("k1", {upsert("members", "m2", member("m2", "o1", "b@x")),
                                       upsert("tasks", "t1", task("t1", "p1")),
                                       upsert("members", "m3", member("m3", "o1", "a@x"))});
  const auto answer = push(violating);
  EXPECT_EQ(answer.status, PushAnswerStatus::rejected);
  EXPECT_THAT(answer.results, ::testing::ElementsAre(error_at(
                                  2, "sync.constraint_violation",
                                  "write violates a relational constraint")));
  EXPECT_EQ(footprint(), before);
  EXPECT_FALSE(row("members", "m2"));
  // Stored and replayed as it was answered.
  const auto replay = push(violating);
  EXPECT_EQ(replay.status, PushAnswerStatus::rejected);
  EXPECT_EQ(replay.results, answer.results);
  // The storage is usable: the next push on it applies.
  EXPECT_EQ(apply(commit("k2", {upsert("members", "m2", member("m2", "o1", "b@x"))})), 2);
}

// Operations apply in order (§6.4): a violation at one operation is the
// answer even when a later operation would be rejected for another reason, or
// the whole-commit validator would refuse. A storage that sends its writes in
// one batch at the end must still report the first failure in this order.
TEST_P(PushAtomicity, PUSH_7_AViolationIsAnsweredBeforeALaterOperationsRejection) {
  record_spec("§6.4", "PUSH-7");
  ASSERT_EQ(apply(commit("seed", {upsert("members", "m1", member("m1", "o1", "a@x")),
                                  upsert("tasks", "t0", task("t0", "p1", "a"))})),
            1);
  const auto before = footprint();
  // Op 1 alone would conflict: t0 is at version 1, not 5.
  const auto answer = push(commit("k1", {upsert("members", "m2", member("m2", "o1", "a@x")),
                                         upsert("tasks", "t0", task("t0", "p1", "b"), 5)}));
  EXPECT_EQ(answer.status, PushAnswerStatus::rejected);
  EXPECT_THAT(answer.results,
              ::testing::ElementsAre(error_at(0, "sync.constraint_violation",
                                              "write violates a relational constraint")));
  EXPECT_EQ(footprint(), before);
  EXPECT_EQ(max_seq(), 1);
}

TEST_P(PushAtomicity, PUSH_7_AViolationIsAnsweredBeforeTheCommitValidatorsVerdict) {
  record_spec("§6.4", "PUSH-7");
  ASSERT_EQ(apply(commit("seed", {upsert("members", "m1", member("m1", "o1", "a@x"))})), 1);
  const auto before = footprint();
  auto refusing = options();
  refusing.commit_validator = [](const push::CommitValidation&) {
    throw push::CommitValidationRejection(0, "test.refused", "the validator refuses");
  };
  const auto answer = push(commit("k1", {upsert("tasks", "t1", task("t1", "p1")),
                                         upsert("members", "m2", member("m2", "o1", "a@x"))}),
                           refusing);
  EXPECT_EQ(answer.status, PushAnswerStatus::rejected);
  EXPECT_THAT(answer.results,
              ::testing::ElementsAre(error_at(1, "sync.constraint_violation",
                                              "write violates a relational constraint")));
  EXPECT_EQ(footprint(), before);
  EXPECT_FALSE(row("tasks", "t1"));
}

}  // namespace
}  // namespace ssp::harness
