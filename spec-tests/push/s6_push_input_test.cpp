// Bad input to a push, at the request and at one operation (SSP2 §1.7,
// §6.1; design notes push.md §1.0, §1.1 step 8), and the pipeline's named
// points in their fixed order (§6.8). The request-level refusals are MUSTs
// of §1.5 and §6.1; how one bad operation is answered is stated without a
// keyword (PUSH-IN-2, the 0.22 release's level); the hook points are ours.
#include <gmock/gmock.h>

#include "harness/fixtures/push_fixtures.hpp"
#include "harness/gates/granted_options.hpp"

namespace ssp::harness {
namespace {

using push::PushAnswerStatus;
using push::PushHookPoint;
using ::testing::ElementsAre;
using ::testing::StartsWith;

class PushInput : public PushTest {
 protected:
  // The code of the PushRequestError `action` throws, or "" when it throws none.
  static std::string request_error(const std::function<void()>& action) {
    try {
      action();
    } catch (const push::PushRequestError& error) {
      return error.code();
    }
    return "";
  }
};
SSP_SQL_BACKENDS(PushInput);

TEST_P(PushInput, PUSH_IN_1_RequestLevelRefusalsWriteAndStoreNothing) {
  record_spec("§6.1", "PUSH-IN-1");
  const auto one = [&](const std::string& id) { return upsert("tasks", id, task(id, "p1")); };
  EXPECT_EQ(request_error([&] {
              push(commit("k1", {one("t1")}, R"(["remote-command","user-1","c"])"));
            }),
            "sync.invalid_client_id");
  EXPECT_EQ(request_error([&] { push(commit("k1", {})); }), "sync.empty_commit");
  std::vector<push::PushOperation> many;
  for (int i = 0; i < 501; ++i) many.push_back(one("t" + std::to_string(i)));
  EXPECT_EQ(request_error([&] { push(commit("k1", many)); }), "sync.too_many_operations");
  auto small_cap = options();
  small_cap.max_operations_per_request = 2;
  EXPECT_EQ(request_error([&] { push(commit("k1", {one("t1"), one("t2"), one("t3")}), small_cap); }),
            "sync.too_many_operations");
  EXPECT_FALSE(stored_result("k1"));
  EXPECT_FALSE(stored_result("k1", R"(["remote-command","user-1","c"])"));
  EXPECT_TRUE(commits().empty());
  // A clientId that merely mentions the prefix later is an ordinary one.
  EXPECT_GT(apply(commit("k1", {one("t1"), one("t2")}, R"(x["remote-command",)")), 0);
}

TEST_P(PushInput, PUSH_IN_3_ACommitOfExactlyTheCapApplies) {
  record_spec("§6.1", "PUSH-IN-3");
  // Only exceeding the cap is refused: at the cap, the commit applies whole.
  const auto one = [&](const std::string& id) { return upsert("tasks", id, task(id, "p1")); };
  auto small_cap = options();
  small_cap.max_operations_per_request = 3;
  const push::PushAnswer three = push(commit("k1", {one("t1"), one("t2"), one("t3")}), small_cap);
  EXPECT_EQ(three.status, PushAnswerStatus::applied) << ::testing::PrintToString(three);
  // The same at the cap the harness passes by default.
  const std::int64_t cap = options().max_operations_per_request;
  std::vector<push::PushOperation> at_cap;
  for (std::int64_t i = 0; i < cap; ++i) at_cap.push_back(one("u" + std::to_string(i)));
  EXPECT_GT(apply(commit("k2", at_cap)), 0);
  EXPECT_EQ(changes_in_log(), static_cast<std::size_t>(3 + cap))
      << "every operation of both commits";
  EXPECT_TRUE(row("tasks", "u" + std::to_string(cap - 1)).has_value());
}

// An upsert without a payload is not among the cases: SSP2 makes it a decode
// error of the request (§6.1's payload row, §1.7), which never reaches the
// pipeline, and upstream's decoder refuses it so.
TEST_P(PushInput, PUSH_IN_2_BadInputOfOneOperationIsAStoredRejection) {
  record_spec("§6.1", "PUSH-IN-2");
  struct Case {
    std::string name;
    push::PushOperation operation;
    std::string code;
    std::string message_prefix;
  };
  const std::vector<Case> cases = {
      {"unknown table", upsert("nope", "t1", task("t1", "p1")), "sync.unknown_table", ""},
      {"undecodable payload", upsert("tasks", "t1", storage::Bytes{0x00, 0x01}),
       "sync.invalid_request", "row payload failed row-codec decode (§1.7): "},
      {"key does not match rowId", upsert("tasks", "t1", task("t2", "p1")),
       "sync.invalid_request", ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto the_commit = commit(c.name, {upsert("tasks", "ok", task("ok", "p1")), c.operation});
    const auto answer = push(the_commit);
    EXPECT_EQ(answer.status, PushAnswerStatus::rejected);
    ASSERT_EQ(answer.results.size(), 1u);
    EXPECT_EQ(answer.results[0].op_index, 1);
    EXPECT_EQ(answer.results[0].code, c.code);
    EXPECT_THAT(answer.results[0].message, StartsWith(c.message_prefix));
    EXPECT_FALSE(answer.results[0].retryable);
    EXPECT_FALSE(row("tasks", "ok"));
    const auto replay = push(the_commit);
    EXPECT_EQ(replay.results, answer.results);
  }
  EXPECT_TRUE(commits().empty());
}

TEST_P(PushInput, PUSH_HOOK_1_HookPointsComeInTheFixedOrderAndTheClockValueStampsTheOutcome) {
  record_spec("§6.8", "PUSH-HOOK-1");
  SSP_GRANT_CAPABILITY(push_hooks, candidate(), Capability::push_hooks);
  std::vector<PushHookPoint> passed;
  auto recording = options();
  install_push_hook(push_hooks, recording, [&](PushHookPoint point) { passed.push_back(point); });
  const auto applied_commit = commit("k1", {upsert("tasks", "t1", task("t1", "p1"))});
  ASSERT_EQ(push(applied_commit, recording).status, PushAnswerStatus::applied);
  // The clock's value of this push (the first read, 1000) stamps its commit
  // and its stored result.
  ASSERT_EQ(commits().size(), 1u);
  EXPECT_EQ(commits()[0].entry.created_at_ms, 1000);
  const auto stored = storage().get_push_result("acme", "client-1", "k1");
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->recorded_at_ms, std::optional<std::int64_t>(1000));
  EXPECT_THAT(passed, ElementsAre(PushHookPoint::after_optimistic_miss, PushHookPoint::after_begin,
                                  PushHookPoint::after_lock, PushHookPoint::after_locked_recheck,
                                  PushHookPoint::after_operations,
                                  PushHookPoint::before_append_commit,
                                  PushHookPoint::before_commit));
  passed.clear();
  ASSERT_EQ(push(commit("k2", {upsert("tasks", "t1", task("t1", "p1"), 0)}), recording).status,
            PushAnswerStatus::rejected);
  EXPECT_THAT(passed, ElementsAre(PushHookPoint::after_optimistic_miss, PushHookPoint::after_begin,
                                  PushHookPoint::after_lock, PushHookPoint::after_locked_recheck,
                                  PushHookPoint::before_commit));
  // A replay found by the lookup outside the transaction passes no point.
  passed.clear();
  EXPECT_EQ(push(applied_commit, recording).status, PushAnswerStatus::cached);
  EXPECT_TRUE(passed.empty());
}

}  // namespace
}  // namespace ssp::harness
