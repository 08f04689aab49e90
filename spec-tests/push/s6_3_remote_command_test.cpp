// Registered remote commands (REMOTE §3, §7; design notes push.md §3.1, §5),
// one delivery at a time: the idempotency key, the checks of a mutation plan,
// what is stored and what is not. The races of commands are schedules
// (spec-tests/races/schedules: CommandAgainstPush, DuplicateCommand, CommandKeys).
// REMOTE states these rules without a keyword, and the keyword index is
// SSP2's: the rows are at the 0.22 release's level.
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include "harness/fixtures/push_fixtures.hpp"

namespace ssp::harness {
namespace {

using push::CommandRequest;
using push::PushAnswerStatus;
using wire::DeclaredCommand;
using Kind = DeclaredCommand::Kind;

class RemoteCommand : public PushTest {
 protected:
  void SetUp() override {
    PushTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SSP_REQUIRE_CAPABILITY(candidate(), Capability::commands);
  }

  static DeclaredCommand increment(const std::string& row_id, const std::string& project = "p1") {
    return DeclaredCommand{Kind::increment, row_id, project};
  }

  push::PushAnswer run(const CommandRequest& request, std::optional<DeclaredCommand> declared,
                       bool authorized = true, const push::PushActor& who = actor()) {
    return candidate().commands().command(storage(), schema(), who, request, declared, authorized,
                                          options());
  }

  // The code of the OperationError or PushRequestError `action` throws, or ""
  // when it throws neither.
  static std::string refusal(const std::function<void()>& action) {
    try {
      action();
    } catch (const push::OperationError& error) {
      return error.code();
    } catch (const push::PushRequestError& error) {
      return error.code();
    }
    return "";
  }

  // The result stored under `request`'s key for actor user-1 (REMOTE §3: the
  // tuples as JSON text), as the candidate's storage reads it back.
  std::optional<push::StoredPushResult> command_result(const CommandRequest& request) {
    const auto text = [](std::initializer_list<std::string> items) {
      return nlohmann::json(std::vector<std::string>(items)).dump();
    };
    return stored_result(text({request.operation_id, request.request_id}),
                         text({"remote-command", "user-1", request.client_id}));
  }

  // The title of tasks row `row_id` (the counter of `increment`), or nothing.
  std::optional<std::string> title_of(const std::string& row_id) {
    const auto payload = payload_of("tasks", row_id);
    if (!payload) return std::nullopt;
    return task_title(decode("tasks", *payload));
  }
};
SSP_SQL_BACKENDS(RemoteCommand);

TEST_P(RemoteCommand, PUSH_CMD_1_AnAppliedCommandIsStoredUnderItsTupleKeyAndRetriesAsCached) {
  record_spec("§2.3, §6.3", "PUSH-CMD-1");
  const CommandRequest request{"inc", "app", "req-1"};
  const auto first = run(request, increment("c1"));
  ASSERT_EQ(first.status, PushAnswerStatus::applied);
  ASSERT_TRUE(first.commit_seq.has_value());
  EXPECT_EQ(title_of("c1"), std::optional<std::string>("1"));
  // REMOTE §3: the key is JSON text of the tuples, the actor included.
  const auto stored = storage().get_push_result("acme", R"(["remote-command","user-1","app"])",
                                                R"(["inc","req-1"])");
  ASSERT_TRUE(stored.has_value()) << "no stored result under the command's tuple key";
  EXPECT_EQ(stored->commit_seq, first.commit_seq);

  const auto retry = run(request, increment("c1"));
  EXPECT_EQ(retry.status, PushAnswerStatus::cached);
  EXPECT_EQ(retry.commit_seq, first.commit_seq);
  EXPECT_EQ(retry.results, first.results);
  EXPECT_EQ(title_of("c1"), std::optional<std::string>("1")) << "the retry ran the command again";
  EXPECT_EQ(commits().size(), 1u);
}

TEST_P(RemoteCommand, PUSH_CMD_2_ABadMutationPlanIsAnInvalidRequestAndStoresNothing) {
  record_spec("§6.3", "PUSH-CMD-2");
  const std::pair<Kind, const char*> defects[] = {
      {Kind::no_mutations, "no mutation"},
      {Kind::unknown_table, "an unknown table"},
      {Kind::empty_row_id, "a delete of an empty rowId"},
      {Kind::partial_row, "an upsert without every column"},
      {Kind::read_unknown_table, "a read of an unknown table"},
  };
  for (const auto& [kind, what] : defects) {
    SCOPED_TRACE(what);
    const CommandRequest request{"bad", "app", std::string("req-") + what};
    EXPECT_EQ(refusal([&] { run(request, DeclaredCommand{kind, "c1", "p1"}); }),
              "operation.invalid_request");
    EXPECT_FALSE(command_result(request)) << "a refused plan stored an outcome";
  }
  EXPECT_TRUE(commits().empty());
}

TEST_P(RemoteCommand, PUSH_CMD_3_ARunThatThrowsFailsStoresNothingAndTheRetryRunsAgain) {
  record_spec("§6.3", "PUSH-CMD-3");
  const CommandRequest request{"inc", "app", "req-1"};
  EXPECT_EQ(refusal([&] { run(request, DeclaredCommand{Kind::fail, "c1", "p1"}); }),
            "operation.execution_failed");
  EXPECT_FALSE(command_result(request));
  EXPECT_TRUE(commits().empty());
  const auto retry = run(request, increment("c1"));
  EXPECT_EQ(retry.status, PushAnswerStatus::applied) << "the failed run left a stored outcome";
  EXPECT_EQ(title_of("c1"), std::optional<std::string>("1"));
}

TEST_P(RemoteCommand, PUSH_CMD_4_RequestsThatCannotRunAreRefusedBeforeAnythingIsRead) {
  record_spec("§6.3", "PUSH-CMD-4");
  EXPECT_EQ(refusal([&] { run({"inc", "app", "req-1"}, std::nullopt); }), "operation.unknown");
  EXPECT_EQ(refusal([&] { run({"inc", "app", ""}, increment("c1")); }),
            "operation.invalid_request");
  EXPECT_EQ(refusal([&] { run({"", "app", "req-1"}, increment("c1")); }),
            "operation.invalid_request");
  EXPECT_EQ(refusal([&] { run({"inc", R"(["remote-command","x","y"])", "r"}, increment("c1")); }),
            "sync.invalid_client_id");
  EXPECT_EQ(refusal([&] { run({"inc", "app", "req-1"}, increment("c1"), false); }),
            "operation.forbidden");
  // A resolver that throws fails as the host's code does (upstream's
  // operations.ts: the run's catch), not as a refusal.
  EXPECT_EQ(refusal([&] {
              run({"inc", "app", "req-1"}, increment("c1"), true, actor(std::nullopt));
            }),
            "operation.execution_failed")
      << "an actor whose scopes could not be resolved";
  for (const CommandRequest& asked : std::initializer_list<CommandRequest>{
           {"inc", "app", "req-1"}, {"inc", "app", ""}, {"", "app", "req-1"}}) {
    EXPECT_FALSE(command_result(asked)) << asked.operation_id << "/" << asked.request_id;
  }
  EXPECT_TRUE(commits().empty());
  EXPECT_FALSE(title_of("c1").has_value());
}

TEST_P(RemoteCommand, PUSH_CMD_5_ACommandReadsOnlyRowsTheActorMayWrite) {
  record_spec("§3.4, §6.3", "PUSH-CMD-5");
  ASSERT_EQ(push(commit("k1", {upsert("tasks", "c1", task("c1", "p2", "41"))})).status,
            PushAnswerStatus::applied);
  // Allowed only p1, the command reads c1 (in p2) as absent and counts from 0;
  // its write is then an update of a p2 row, refused by §3.4 and stored.
  const auto only_p1 = actor(ScopeMap{{"project_id", {"p1"}}});
  const auto answer = run({"inc", "app", "req-1"}, increment("c1"), true, only_p1);
  ASSERT_EQ(answer.status, PushAnswerStatus::rejected);
  ASSERT_EQ(answer.results.size(), 1u);
  EXPECT_EQ(answer.results[0].code, "sync.forbidden");
  EXPECT_EQ(title_of("c1"), std::optional<std::string>("41"));
  // With p2 allowed the command sees the row and counts on from it.
  const auto both = run({"inc", "app", "req-2"}, increment("c1"), true,
                        actor(ScopeMap{{"project_id", {"p1", "p2"}}}));
  EXPECT_EQ(both.status, PushAnswerStatus::applied);
  EXPECT_EQ(title_of("c1"), std::optional<std::string>("42"));
}

TEST_P(RemoteCommand, PUSH_CMD_REF_1_AuthorizeRunsOnEveryDeliveryBeforeTheLookup) {
  record_spec("§6.3", "PUSH-CMD-REF-1");
  const CommandRequest request{"inc", "app", "req-1"};
  ASSERT_EQ(run(request, increment("c1")).status, PushAnswerStatus::applied);
  // Revoked after it applied: the retry is forbidden, not cached.
  EXPECT_EQ(refusal([&] { run(request, increment("c1"), false); }), "operation.forbidden");
}

}  // namespace
}  // namespace ssp::harness
