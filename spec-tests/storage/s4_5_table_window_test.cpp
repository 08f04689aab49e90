// Pull's read through the candidate's server storage (SSP2 §4.5, §3.1, §3.2;
// design notes storage.md §5.1, upstream's readCommitWindow): the commits of
// a seq window, each cut down to its changes of one table that the puller's
// scopes allow. The commits are made by pushes through the candidate; what
// the window must hold is written here, from what was pushed.
#include <gmock/gmock.h>

#include "harness/fixtures/push_fixtures.hpp"

namespace ssp::harness {
namespace {

using storage::ChangeOp;
using storage::TableWindowQuery;
using storage::WindowCommit;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

// "<seq>:" then each change as "<op><row id>", e.g. "1:+t1 +t2", "5:-t2".
std::vector<std::string> shape_of(const std::vector<WindowCommit>& window) {
  std::vector<std::string> out;
  for (const WindowCommit& commit : window) {
    std::string text = std::to_string(commit.commit_seq) + ":";
    for (const storage::Change& change : commit.changes) {
      text += (text.back() == ':' ? "" : " ");
      text += (change.op == ChangeOp::upsert ? "+" : "-") + change.row_id;
    }
    out.push_back(text);
  }
  return out;
}

class TableWindow : public PushTest {
 protected:
  void SetUp() override {
    PushTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SSP_REQUIRE_CAPABILITY(candidate(), Capability::table_window);
    // 1: tasks t1 (p1), t2 (p2)     2: tasks t3 (p2)
    // 3: docs d1 (o1, x), d2 (o1, y)  4: members m1 (o1)
    // 5: tasks t1 again (p1), t2 deleted (p2)
    t1_ = task("t1", "p1", "first");
    ASSERT_EQ(apply(commit("k1", {upsert("tasks", "t1", t1_),
                                  upsert("tasks", "t2", task("t2", "p2"))})),
              1);
    ASSERT_EQ(apply(commit("k2", {upsert("tasks", "t3", task("t3", "p2"))})), 2);
    ASSERT_EQ(apply(commit("k3", {upsert("docs", "d1", doc("d1", "o1", "x")),
                                  upsert("docs", "d2", doc("d2", "o1", "y"))})),
              3);
    ASSERT_EQ(apply(commit("k4", {upsert("members", "m1", member("m1", "o1", "a@x"))})), 4);
    ASSERT_EQ(apply(commit("k5", {upsert("tasks", "t1", task("t1", "p1", "second"), 1),
                                  remove("tasks", "t2")})),
              5);
  }

  std::vector<WindowCommit> window(const std::string& table, ScopeMap filter,
                                   std::int64_t after_seq = 0, std::int64_t through_seq = 5,
                                   std::int64_t limit_changes = 100) {
    return storage().read_table_window(
        "acme", TableWindowQuery{table, std::move(filter), after_seq, through_seq, limit_changes});
  }

  storage::Bytes t1_;
};
SSP_SQL_BACKENDS(TableWindow);

TEST_P(TableWindow, PULL_1_AWindowHoldsExactlyTheChangesOfItsTableThatItsScopesAllow) {
  record_spec("§4.5", "PULL-1");
  EXPECT_THAT(shape_of(window("tasks", {{"project_id", {"p1"}}})), ElementsAre("1:+t1", "5:+t1"))
      << "commit 2 holds no change of p1, commits 3 and 4 none of tasks";
  EXPECT_THAT(shape_of(window("tasks", {{"project_id", {"p1", "p2"}}})),
              ElementsAre("1:+t1 +t2", "2:+t3", "5:+t1 -t2"))
      << "a delete carries the scopes of the row it removed";
  EXPECT_THAT(shape_of(window("docs", {{"org_id", {"o1"}}, {"team_id", {"x"}}})),
              ElementsAre("3:+d1"))
      << "every variable of the filter must allow the change";
  EXPECT_THAT(shape_of(window("tasks", {{"project_id", {"p1"}}, {"org_id", {"o1"}}})), IsEmpty())
      << "a variable the change does not store allows nothing";
  EXPECT_THAT(shape_of(window("members", {{"org_id", {"o2"}}})), IsEmpty());

  const std::vector<WindowCommit> first = window("tasks", {{"project_id", {"p1"}}}, 0, 1);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].actor_id, "user-1");
  ASSERT_EQ(first[0].changes.size(), 1u);
  const storage::Change& change = first[0].changes[0];
  EXPECT_EQ(change.table, "tasks");
  EXPECT_EQ(change.row_version, std::optional<std::int64_t>(1));
  EXPECT_EQ(change.payload, std::optional<storage::Bytes>(t1_)) << "the bytes pushed";
  EXPECT_EQ(change.scopes, (std::map<std::string, std::string>{{"project_id", "p1"}}));
  const std::vector<WindowCommit> last = window("tasks", {{"project_id", {"p2"}}}, 4, 5);
  ASSERT_EQ(last.size(), 1u);
  ASSERT_EQ(last[0].changes.size(), 1u);
  EXPECT_EQ(last[0].changes[0].payload, std::nullopt) << "a delete carries no row";
}

TEST_P(TableWindow, PULL_2_AWindowIsItsSeqRangeAfterItsStartThroughItsEnd) {
  record_spec("§4.5", "PULL-2");
  const ScopeMap both{{"project_id", {"p1", "p2"}}};
  EXPECT_THAT(shape_of(window("tasks", both, 1, 4)), ElementsAre("2:+t3"));
  EXPECT_THAT(shape_of(window("tasks", both, 2, 5)), ElementsAre("5:+t1 -t2"));
  EXPECT_THAT(shape_of(window("tasks", both, 0, 1)), ElementsAre("1:+t1 +t2"));
  EXPECT_THAT(shape_of(window("tasks", both, 3, 3)), IsEmpty());
  EXPECT_THAT(shape_of(window("tasks", both, 5, 9)), IsEmpty());
}

TEST_P(TableWindow, PULL_3_AWindowStopsAtItsChangeLimitWithoutSplittingACommit) {
  record_spec("§4.5", "PULL-3");
  const ScopeMap both{{"project_id", {"p1", "p2"}}};
  EXPECT_THAT(shape_of(window("tasks", both, 0, 5, 1)), ElementsAre("1:+t1 +t2"));
  EXPECT_THAT(shape_of(window("tasks", both, 0, 5, 2)), ElementsAre("1:+t1 +t2"));
  EXPECT_THAT(shape_of(window("tasks", both, 0, 5, 3)), ElementsAre("1:+t1 +t2", "2:+t3"));
  // Paging from the last commit a page held meets every commit once.
  std::vector<std::string> paged;
  std::int64_t after_seq = 0;
  for (int page = 0; page < 10; ++page) {
    const std::vector<WindowCommit> next = window("tasks", both, after_seq, 5, 1);
    if (next.empty()) break;
    for (const std::string& commit : shape_of(next)) paged.push_back(commit);
    after_seq = next.back().commit_seq;
  }
  EXPECT_THAT(paged, ElementsAre("1:+t1 +t2", "2:+t3", "5:+t1 -t2"));
}

TEST_P(TableWindow, PULL_4_AFilterWithoutAVariableOrWithoutValuesReadsNothing) {
  record_spec("§4.5", "PULL-4");
  EXPECT_THAT(window("tasks", {}), IsEmpty());
  EXPECT_THAT(window("tasks", {{"project_id", {}}}), IsEmpty());
  EXPECT_THAT(window("docs", {{"org_id", {"o1"}}, {"team_id", {}}}), IsEmpty());
}

}  // namespace
}  // namespace ssp::harness
