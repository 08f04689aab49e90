// A commit applies whole or not at all (SSP2 §6.4; design notes push.md
// §1.1 steps 11–12, §6.1 items 6–7). The rollback is §6.4's MUST (PUSH-6),
// and so is that nobody reads a commit before it is applied (PUSH-6-ISO);
// which record a rejection carries, and how a relational constraint is
// answered, SSP2 states without a keyword (PUSH-6-REL, PUSH-7).
#include <gmock/gmock.h>

#include <future>
#include <mutex>
#include <optional>

#include "harness/fixtures/push_fixtures.hpp"
#include "harness/fixtures/push_storage_fixtures.hpp"

namespace ssp::harness {
namespace {

using push::PushAnswerStatus;

class PushAtomicity : public PushTest {
 protected:
  // What PUSH-6's push could change, as the candidate's storage reads it
  // back: the commit log (commits, their changes and change scopes) and every
  // row the push names (version, payload, scopes). No table is counted by SQL:
  // a candidate with tables of its own is judged the same.
  struct Footprint {
    std::vector<storage::Commit> log;
    std::vector<std::optional<storage::StoredRow>> rows;
    friend bool operator==(const Footprint&, const Footprint&) = default;
  };
  Footprint footprint() {
    return {commits(),
            {row("tasks", "t0"), row("tasks", "t1"), row("tasks", "t5"), row("members", "m1")}};
  }

  // PUSH-6's seed: t0 in p1 and t5 in p2, at version 1.
  std::int64_t seed_two_rows() {
    return apply(commit("seed", {upsert("tasks", "t0", task("t0", "p1", "a")),
                                 upsert("tasks", "t5", task("t5", "p2", "a"))}));
  }

  // PUSH-6's push: an insert, an update of t0 (to version 2), a delete, an
  // insert in another table, then a compare-and-set of t0 from
  // `last_base_version`. From 7 it conflicts whether or not the candidate
  // shows op 4 op 1's staged write, so PUSH-6 rests on the rollback alone;
  // from 1 it conflicts only because op 1 took t0 to version 2 (PUSH-6-REL).
  push::PushCommit five_operations(std::int64_t last_base_version) {
    return commit("k1", {upsert("tasks", "t1", task("t1", "p3")),
                         upsert("tasks", "t0", task("t0", "p1", "b")), remove("tasks", "t5"),
                         upsert("members", "m1", member("m1", "o1", "a@x")),
                         upsert("tasks", "t0", task("t0", "p1", "c"), last_base_version)});
  }
};
SSP_SQL_BACKENDS(PushAtomicity);

TEST_P(PushAtomicity, PUSH_6_ARejectionRollsBackEveryEarlierOperation) {
  record_spec("§6.4", "PUSH-6");
  ASSERT_GT(seed_two_rows(), 0);
  const auto before = footprint();
  const auto seed_result = stored_result("seed");
  const auto answer = push(five_operations(7));
  EXPECT_EQ(answer.status, PushAnswerStatus::rejected);
  // Nothing of operations 0…3 stays (§6.4); only the rejection is stored.
  EXPECT_TRUE(footprint() == before) << "the rejected push changed the log or a row it names";
  const auto rejection = stored_result("k1");
  ASSERT_TRUE(rejection) << "the rejection is not stored";
  EXPECT_EQ(rejection->status, push::PushStatus::rejected);
  EXPECT_EQ(stored_result("seed"), seed_result);
  EXPECT_FALSE(row("tasks", "t1"));
  ASSERT_TRUE(row("tasks", "t0"));
  EXPECT_EQ(version_of("tasks", "t0"), std::optional<std::int64_t>(1));
  EXPECT_EQ(payload_of("tasks", "t0"), std::optional<storage::Bytes>(task("t0", "p1", "a")));
  EXPECT_TRUE(row("tasks", "t5"));
  EXPECT_FALSE(row("members", "m1"));
}

// The one record of the rejection is the terminating operation's (§6.3), and
// that operation saw op 1's write of t0 (§6.2 against the row as the commit
// left it): both stated without a keyword.
TEST_P(PushAtomicity, PUSH_6_REL_TheRecordIsTheTerminatingOperationsAgainstTheCommitsOwnWrite) {
  record_spec("§6.4", "PUSH-6-REL");
  ASSERT_GT(seed_two_rows(), 0);
  const auto answer = push(five_operations(1));
  EXPECT_EQ(answer.status, PushAnswerStatus::rejected);
  ASSERT_EQ(answer.results.size(), 1u);
  EXPECT_EQ(answer.results[0].op_index, 4);  // t0 is at version 2 by then: op 1's write
  EXPECT_EQ(answer.results[0].server_version, std::optional<std::int64_t>(2));
  EXPECT_EQ(answer.results[0].server_row, std::optional<storage::Bytes>(task("t0", "p1", "b")));
}

TEST_P(PushAtomicity, PUSH_7_AUniqueViolationIsAConstraintViolationAtItsOperation) {
  record_spec("§6.4", "PUSH-7");
  ASSERT_GT(apply(commit("seed", {upsert("members", "m1", member("m1", "o1", "a@x"))})), 0);
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
  EXPECT_GT(apply(commit("k2", {upsert("members", "m2", member("m2", "o1", "b@x"))})), 0);
}

// Operations apply in order (§6.4): a violation at one operation is the
// answer even when a later operation would be rejected for another reason, or
// the whole-commit validator would refuse. A storage that sends its writes in
// one batch at the end must still report the first failure in this order.
TEST_P(PushAtomicity, PUSH_7_AViolationIsAnsweredBeforeALaterOperationsRejection) {
  record_spec("§6.4", "PUSH-7");
  ASSERT_GT(apply(commit("seed", {upsert("members", "m1", member("m1", "o1", "a@x")),
                                  upsert("tasks", "t0", task("t0", "p1", "a"))})),
            0);
  const auto before = footprint();
  // Op 1 alone would conflict: t0 is at version 1, not 5.
  const auto answer = push(commit("k1", {upsert("members", "m2", member("m2", "o1", "a@x")),
                                         upsert("tasks", "t0", task("t0", "p1", "b"), 5)}));
  EXPECT_EQ(answer.status, PushAnswerStatus::rejected);
  EXPECT_THAT(answer.results,
              ::testing::ElementsAre(error_at(0, "sync.constraint_violation",
                                              "write violates a relational constraint")));
  EXPECT_EQ(footprint(), before);
}

TEST_P(PushAtomicity, PUSH_7_AViolationIsAnsweredBeforeTheCommitValidatorsVerdict) {
  record_spec("§6.4", "PUSH-7");
  ASSERT_GT(apply(commit("seed", {upsert("members", "m1", member("m1", "o1", "a@x"))})), 0);
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

// What a read of the storage shows of PUSH-6-ISO's push.
struct SeenOfThePush {
  std::optional<std::int64_t> t0_version;
  bool t1_present = false;
  std::int64_t max_seq = 0;
  bool result_stored = false;
};

// §6.4: a puller never observes a commit's changes before its push response
// could report them (S#6), and a commit rejected after staging was never
// applied, even in part (MUST#1). The push stages an update of t0 and an
// insert of t1, then parks in its whole-commit validator, a callback every
// candidate calls, and is refused there. Reads by another caller while it is
// parked must show the committed state. SSP2 lets reads wait for the push
// instead: a read that has not answered by the watchdog is taken to wait, the
// push is refused, and the read must then show the state the refusal left, the
// same rows and seq (a candidate whose reads wait pays the watchdog here).
TEST_P(PushAtomicity, PUSH_6_ISO_NoReaderSeesAnOpenPush) {
  record_spec("§6.4", "PUSH-6-ISO");
  const std::int64_t seed = seed_two_rows();
  ASSERT_GT(seed, 0);
  std::promise<void> parked;
  std::once_flag parked_once;
  std::promise<void> released;
  auto parking = options();
  parking.commit_validator = [&, release = released.get_future().share()](
                                 const push::CommitValidation&) {
    std::call_once(parked_once, [&] { parked.set_value(); });
    release.wait();
    throw push::ValidationRejection("test.refused", "no");
  };
  std::optional<push::PushAnswer> answer;
  Background pushing([&] {
    answer = push(commit("k1", {upsert("tasks", "t0", task("t0", "p1", "staged")),
                                upsert("tasks", "t1", task("t1", "p1", "staged"))}),
                  parking);
  });
  if (parked.get_future().wait_for(kWatchdog) != std::future_status::ready) {
    released.set_value();
    pushing.finish();
    FAIL() << "the push never called its whole-commit validator";
  }
  SeenOfThePush seen;
  Background reading([&] {
    seen = {version_of("tasks", "t0"), row("tasks", "t1").has_value(), max_seq(),
            stored_result("k1").has_value()};
  });
  const bool read_while_parked = reading.finish();
  released.set_value();
  ASSERT_TRUE(pushing.finish()) << "the refused push never answered";
  ASSERT_TRUE(read_while_parked || reading.finish()) << "the read never answered";
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, PushAnswerStatus::rejected) << ::testing::PrintToString(*answer);
  EXPECT_EQ(seen.t0_version, std::optional<std::int64_t>(1)) << "a reader saw t0 staged";
  EXPECT_FALSE(seen.t1_present) << "a reader saw t1, which the push staged";
  EXPECT_EQ(seen.max_seq, seed) << "a reader saw the open push's commit";
  if (read_while_parked) {
    EXPECT_FALSE(seen.result_stored) << "a reader saw the open push's result";
  }
  EXPECT_EQ(payload_of("tasks", "t0"), std::optional<storage::Bytes>(task("t0", "p1", "a")));
  EXPECT_FALSE(row("tasks", "t1"));
}

}  // namespace
}  // namespace ssp::harness
