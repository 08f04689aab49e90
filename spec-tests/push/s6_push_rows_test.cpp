// Row versions, conflicts and write authorization of a push (SSP2 §2.2, §3.4,
// §6.2; design notes push.md §1.1 step 8, §6.1 items 3–4). Versions and
// conflicts are rules SSP2 states without a keyword (PUSH-3, at the 0.22
// release's level); §3.4's MUSTs are PUSH-4's, and what §3.4 says of empty
// scope values and failed resolvers without one is PUSH-4-REL's. Seqs are not
// compared: their numbering is PUSH-1's.
#include <gmock/gmock.h>

#include "harness/fixtures/push_fixtures.hpp"

namespace ssp::harness {
namespace {

using push::OperationResult;
using push::OperationStatus;
using push::PushAnswerStatus;

using Scopes = std::map<std::string, std::string>;

OperationResult conflict_at(std::int64_t op_index, std::int64_t server_version,
                            storage::Bytes server_row) {
  OperationResult record;
  record.op_index = op_index;
  record.status = OperationStatus::conflict;
  record.code = "sync.version_conflict";
  record.message = "row version does not match baseVersion (§6.2)";
  record.server_version = server_version;
  record.server_row = std::move(server_row);
  return record;
}

class PushRows : public PushTest {};
SSP_SQL_BACKENDS(PushRows);

TEST_P(PushRows, PUSH_3_InsertIsVersionOneAndEachAppliedUpsertAddsOne) {
  record_spec("§2.2", "PUSH-3");
  ASSERT_GT(apply(commit("k1", {upsert("tasks", "t1", task("t1", "p1", "a"))})), 0);
  ASSERT_GT(apply(commit("k2", {upsert("tasks", "t1", task("t1", "p1", "b"))})), 0);  // LWW
  ASSERT_GT(apply(commit("k3", {upsert("tasks", "t1", task("t1", "p1", "c"), 2)})), 0);  // CAS
  const auto stored = row("tasks", "t1");
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->server_version, 3);
  EXPECT_EQ(stored->payload, task("t1", "p1", "c"));
  EXPECT_EQ(stored->scopes, (Scopes{{"project_id", "p1"}}));
  const auto log = commits();
  ASSERT_EQ(log.size(), 3u);
  for (std::int64_t v = 1; v <= 3; ++v) {
    ASSERT_EQ(log[v - 1].entry.changes.size(), 1u);
    EXPECT_EQ(log[v - 1].entry.changes[0].row_version, std::optional<std::int64_t>(v));
  }
  // A re-insert after a delete starts at 1 again.
  ASSERT_GT(apply(commit("k4", {remove("tasks", "t1")})), 0);
  ASSERT_GT(apply(commit("k5", {upsert("tasks", "t1", task("t1", "p1", "d"), 0)})), 0);
  ASSERT_TRUE(row("tasks", "t1"));
  EXPECT_EQ(version_of("tasks", "t1"), std::optional<std::int64_t>(1));
}

TEST_P(PushRows, PUSH_3_AStaleBaseAndBaseZeroOnAnExistingRowConflictWithTheStoredRow) {
  record_spec("§6.2", "PUSH-3");
  ASSERT_GT(apply(commit("k1", {upsert("tasks", "t1", task("t1", "p1", "a"))})), 0);
  ASSERT_GT(apply(commit("k2", {upsert("tasks", "t1", task("t1", "p1", "b"))})), 0);
  for (const std::int64_t base : {std::int64_t{1}, std::int64_t{3}, std::int64_t{0}}) {
    SCOPED_TRACE("baseVersion " + std::to_string(base));
    const auto answer =
        push(commit("cas-" + std::to_string(base),
                    {upsert("tasks", "t2", task("t2", "p1")),
                     upsert("tasks", "t1", task("t1", "p1", "mine"), base)}));
    EXPECT_EQ(answer.status, PushAnswerStatus::rejected);
    EXPECT_FALSE(answer.commit_seq);
    EXPECT_THAT(answer.results, ::testing::ElementsAre(conflict_at(1, 2, task("t1", "p1", "b"))));
  }
  EXPECT_EQ(payload_of("tasks", "t1"), std::optional<storage::Bytes>(task("t1", "p1", "b")));
  EXPECT_FALSE(row("tasks", "t2"));
}

TEST_P(PushRows, PUSH_3_ABaseOnAnAbsentRowIsRowMissingWhenAuthorizedElseForbidden) {
  record_spec("§6.2", "PUSH-3");
  const auto missing = push(commit("k1", {upsert("tasks", "t1", task("t1", "p1"), 4)}),
                            actor(ScopeMap{{"project_id", {"p1"}}}), options());
  EXPECT_EQ(missing.status, PushAnswerStatus::rejected);
  ASSERT_EQ(missing.results.size(), 1u);
  EXPECT_EQ(missing.results[0].code, "sync.row_missing");
  EXPECT_EQ(missing.results[0].op_index, 0);
  EXPECT_EQ(missing.results[0].status, OperationStatus::error);
  const auto forbidden = push(commit("k2", {upsert("tasks", "t1", task("t1", "p2"), 4)}),
                              actor(ScopeMap{{"project_id", {"p1"}}}), options());
  EXPECT_EQ(forbidden.status, PushAnswerStatus::rejected);
  ASSERT_EQ(forbidden.results.size(), 1u);
  EXPECT_EQ(forbidden.results[0].code, "sync.forbidden");
  EXPECT_FALSE(row("tasks", "t1"));
}

TEST_P(PushRows, PUSH_3_DeletingAnAbsentRowAppliesWithNoChangeNoCheckAndNoValidator) {
  record_spec("§6.2", "PUSH-3");
  int validations = 0;
  int notifications = 0;
  auto counting = options();
  counting.row_validators["tasks"] = [&](const push::RowValidation&) { ++validations; };
  counting.notify = [&](const push::CommitNotification&) { ++notifications; };
  // An actor holding no scope at all: an absent row is never authorized.
  const auto answer = push(commit("k1", {remove("tasks", "ghost")}), actor(ScopeMap{}), counting);
  EXPECT_EQ(answer.status, PushAnswerStatus::applied);
  EXPECT_TRUE(answer.commit_seq.has_value()) << "an applied commit without a change has a seq";
  ASSERT_EQ(answer.results.size(), 1u);
  EXPECT_EQ(answer.results[0].status, OperationStatus::applied);
  EXPECT_EQ(validations, 0);
  EXPECT_EQ(notifications, 0);
  const auto log = commits();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_TRUE(log[0].entry.changes.empty());
}

TEST_P(PushRows, PUSH_4_UpdatesAndDeletesAreAuthorizedAgainstTheStoredRow) {
  record_spec("§3.4", "PUSH-4");
  ASSERT_GT(apply(commit("seed", {upsert("tasks", "t1", task("t1", "p1", "a"))})), 0);
  const auto p2_only = actor(ScopeMap{{"project_id", {"p2"}}});
  // The payload claims p2, which the actor holds; the stored row is in p1.
  const auto update = push(commit("k1", {upsert("tasks", "t1", task("t1", "p2", "x"))}), p2_only,
                           options());
  EXPECT_EQ(update.status, PushAnswerStatus::rejected);
  ASSERT_EQ(update.results.size(), 1u);
  EXPECT_EQ(update.results[0].code, "sync.forbidden");
  const auto deletion = push(commit("k2", {remove("tasks", "t1")}), p2_only, options());
  EXPECT_EQ(deletion.status, PushAnswerStatus::rejected);
  ASSERT_EQ(deletion.results.size(), 1u);
  EXPECT_EQ(deletion.results[0].code, "sync.forbidden");
  ASSERT_TRUE(row("tasks", "t1"));
  EXPECT_EQ(payload_of("tasks", "t1"), std::optional<storage::Bytes>(task("t1", "p1", "a")));
  // The holder of p1 may delete it.
  const auto allowed = push(commit("k3", {remove("tasks", "t1")}),
                            actor(ScopeMap{{"project_id", {"p1"}}}), options());
  EXPECT_EQ(allowed.status, PushAnswerStatus::applied);
  EXPECT_FALSE(row("tasks", "t1"));
}

TEST_P(PushRows, PUSH_4_ScopeColumnsAreStrippedFromEveryUpdate) {
  record_spec("§3.4", "PUSH-4");
  ASSERT_GT(apply(commit("seed", {upsert("tasks", "t1", task("t1", "p1", "a")),
                                  upsert("tasks", "t2", task("t2", "p1", "a"))})),
            0);
  // Last-writer-wins and compare-and-set, by an actor holding both scopes.
  ASSERT_GT(apply(commit("lww", {upsert("tasks", "t1", task("t1", "p2", "b"))})), 0);
  ASSERT_GT(apply(commit("cas", {upsert("tasks", "t2", task("t2", "p2", "b"), 1)})), 0);
  for (const std::string id : {"t1", "t2"}) {
    SCOPED_TRACE(id);
    const auto stored = row("tasks", id);
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored->scopes, (Scopes{{"project_id", "p1"}}));
    EXPECT_EQ(stored->payload, task(id, "p1", "b"));
  }
  const auto log = commits();
  ASSERT_EQ(log.size(), 3u);
  ASSERT_EQ(log[1].entry.changes.size(), 1u);
  EXPECT_EQ(log[1].entry.changes[0].scopes, (Scopes{{"project_id", "p1"}}));
  EXPECT_EQ(log[1].entry.changes[0].payload, std::optional<storage::Bytes>(task("t1", "p1", "b")));
}

TEST_P(PushRows, PUSH_4_AnInsertIsAuthorizedAgainstItsPayloadAndNeedsEveryScope) {
  record_spec("§3.4", "PUSH-4");
  const auto p1_only = actor(ScopeMap{{"project_id", {"p1"}}});
  const auto foreign = push(commit("k1", {upsert("tasks", "t1", task("t1", "p2"))}), p1_only,
                            options());
  ASSERT_EQ(foreign.results.size(), 1u);
  EXPECT_EQ(foreign.results[0].code, "sync.forbidden");
  // docs needs both org and team: holding one of them is not enough.
  const auto partial = push(commit("k3", {upsert("docs", "d1", doc("d1", "o1", "t1"))}),
                            actor(ScopeMap{{"org_id", {"o1"}}}), options());
  ASSERT_EQ(partial.results.size(), 1u);
  EXPECT_EQ(partial.results[0].code, "sync.forbidden");
  EXPECT_TRUE(commits().empty());
  // '*' grants any value; a listed value grants itself.
  const auto granted = push(commit("k4", {upsert("tasks", "t1", task("t1", "p1")),
                                          upsert("docs", "d1", doc("d1", "o1", "t1"))}),
                            actor(ScopeMap{{"project_id", {"p1"}},
                                           {"org_id", {"*"}},
                                           {"team_id", {"t0", "t1"}}}),
                            options());
  EXPECT_EQ(granted.status, PushAnswerStatus::applied) << ::testing::PrintToString(granted);
  ASSERT_TRUE(row("docs", "d1"));
  EXPECT_EQ(scopes_of("docs", "d1"),
            std::optional<Scopes>(Scopes{{"org_id", "o1"}, {"team_id", "t1"}}));
}

// §3.4 step 2 (no keyword): a missing scope value denies, `sync.forbidden`
// (step 4), even for an actor allowed '*'. `sync.missing_scopes` (§3.1) is a
// server that emitted a change without stored scopes, which a denied
// operation never emits.
TEST_P(PushRows, PUSH_4_REL_AStoredRowWithoutAScopeValueIsForbiddenEvenUnderAWildcard) {
  record_spec("§3.4", "PUSH-4-REL");
  // Written around the push path: no team_id, neither in the stored scopes
  // nor in the row's column, so however a candidate reads the stored row's
  // scope values, it finds none.
  storage().upsert_row("acme", "docs", storage::StoredRow{"d1", 1, {{"org_id", "o1"}},
                                                           doc("d1", "o1", "")});
  const auto answer = push(commit("k1", {remove("docs", "d1")}));
  EXPECT_EQ(answer.status, PushAnswerStatus::rejected);
  ASSERT_EQ(answer.results.size(), 1u);
  EXPECT_EQ(answer.results[0].code, "sync.forbidden");
  EXPECT_EQ(answer.results[0].op_index, 0);
  EXPECT_TRUE(row("docs", "d1"));
}

TEST_P(PushRows, PUSH_4_AFailedResolverForbidsAtTheFirstOperationAndIsStored) {
  record_spec("§3.4", "PUSH-4");
  const auto the_commit = commit("k1", {upsert("tasks", "t1", task("t1", "p1")),
                                        upsert("tasks", "t2", task("t2", "p1"))});
  // No scope was resolved, so no value is allowed (§3.4 step 3): the first
  // operation is refused. Upstream's message is PUSH-4-REL's.
  const auto answer = push(the_commit, actor(std::nullopt), options());
  EXPECT_EQ(answer.status, PushAnswerStatus::rejected);
  ASSERT_EQ(answer.results.size(), 1u);
  EXPECT_EQ(answer.results[0].op_index, 0);
  EXPECT_EQ(answer.results[0].code, "sync.forbidden");
  // Persisted: a retry with a working resolver replays the rejection.
  const auto retry = push(the_commit);
  EXPECT_EQ(retry.status, PushAnswerStatus::rejected);
  EXPECT_EQ(retry.results, answer.results);
  EXPECT_FALSE(row("tasks", "t1"));
}

// §3.4 step 2 denies a missing or empty scope value, without a keyword: even
// an actor allowed every project ('*') cannot insert a row without one.
TEST_P(PushRows, PUSH_4_REL_AnEmptyScopeValueDeniesAnInsertEvenUnderAWildcard) {
  record_spec("§3.4", "PUSH-4-REL");
  const auto empty = push(commit("k2", {upsert("tasks", "t1", task("t1", ""))}),
                          actor(ScopeMap{{"project_id", {"*"}}}), options());
  ASSERT_EQ(empty.results.size(), 1u);
  EXPECT_EQ(empty.results[0].code, "sync.forbidden");
  EXPECT_FALSE(row("tasks", "t1"));
}

// Upstream's text for a failed resolver (design notes push.md §1.0); SSP2
// pins the code, not the words.
TEST_P(PushRows, PUSH_4_REL_AFailedResolverIsRefusedWithUpstreamsMessage) {
  record_spec("§3.4", "PUSH-4-REL");
  const auto answer = push(commit("k1", {upsert("tasks", "t1", task("t1", "p1")),
                                         upsert("tasks", "t2", task("t2", "p1"))}),
                           actor(std::nullopt), options());
  EXPECT_THAT(answer.results, ::testing::ElementsAre(error_at(
                                  0, "sync.forbidden", "scope resolution failed (§3.4 step 4)")));
}

}  // namespace
}  // namespace ssp::harness
