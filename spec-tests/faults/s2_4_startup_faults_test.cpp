// A server startup that migrates, faulted where production faults it
// (issue 35, docs/faults.md): its process dies at an ensure hook point, where
// the candidate declares them, or its PostgreSQL connection is cut at one of
// its round trips. The 0.22 release migrates in one transaction, the marker
// written last (design/storage.md §3): so a new process must find the
// database at the old layout (every hook point precedes the commit) or, after
// the COMMIT's answer was cut, at the new one, and its own startup then
// completes: migrating from the old layout, or finding the new one complete
// and writing nothing. SSP2 §2.4 has no keyword for a startup's atomicity;
// these rows are the release's (docs/requirements/faults.md).
#include <gmock/gmock.h>

#include "relay/postgres_relay.hpp"
#include "harness/errors/candidate_killed.hpp"
#include "harness/faults/fault_plan.hpp"
#include "harness/faults/fault_plan_tests.hpp"
#include "harness/faults/fault_sweep.hpp"
#include "harness/faults/round_trip_cuts.hpp"
#include "harness/faults/startup_points.hpp"
#include "harness/faults/unanswered_calls.hpp"
#include "harness/fixtures/storage_fixtures.hpp"
#include "harness/util/dump_difference.hpp"

namespace ssp::harness {
namespace {

// The example schema (version 3) with a nullable column appended to tasks
// and its index changed, at version 4: Migration C-1's bump, which adds a
// column, rebuilds an index, re-encodes every tasks row and writes the marker.
storage::ServerSchema startup_fault_bump() {
  storage::ServerSchema schema = example_schema();
  schema.version = 4;
  schema.tables[0].columns.push_back(
      {"priority", storage::ColumnType::integer, true, {}, false, {}});
  schema.tables[0].indexes = {{"by_done", {"done"}, false}};
  return schema;
}

// What the startup engine can check after a fault of `kind`: a plan claims
// some of these, and only what it claims is played (claims()).
std::vector<FaultCheck> startup_checks_played_for(FaultKind kind) {
  if (kind == FaultKind::cut) {
    return {FaultCheck::fails_cleanly, FaultCheck::whole_or_none, FaultCheck::applies_once,
            FaultCheck::replays};
  }
  return {FaultCheck::untouched_before_commit, FaultCheck::whole_or_none,
          FaultCheck::applies_once};
}

class StartupFaults : public StorageTest {
 protected:
  void SetUp() override {
    StorageTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    hooks_ = optional_grant(candidate(), Capability::hooks);
  }

  // Plays `plan`: a clean startup of a database of its own names the
  // points and the marker a migration writes, then every chosen point faults
  // the startup of another such database.
  void play(const FaultPlan& plan) {
    if (const auto why = unplayable_check(plan, startup_checks_played_for(plan.fault))) {
      FAIL() << *why;
    }
    if (plan.fault == FaultKind::cut && backend() != Backend::postgres) {
      GTEST_SKIP() << plan.file << ": a connection is cut on PostgreSQL's wire protocol; a "
                                   "SQLite database has no connection to cut";
    }
    if (plan.fault == FaultKind::cut) {
      relay_ = std::make_unique<PostgresRelay>(database().location().pg_dsn);
    }
    const std::vector<std::string> reached = clean_run(plan);
    if (HasFatalFailure()) return;
    FaultSweepStart sweep = start_fault_sweep(plan, backend(), reached, "startup");
    if (sweep.skip) {
      GTEST_SKIP() << *sweep.skip << ": a candidate that declares no hooks makes no callback at "
                                     "startup";
    }
    if (plan.fault == FaultKind::cut) CutSweepsStarted::of_this_run().record({plan.file, backend()});
    int round = 1;
    for (const std::string& point : sweep.points) {
      SCOPED_TRACE(plan.file + ": round " + std::to_string(round++) +
                   (plan.fault == FaultKind::cut ? ", its connection cut at " : ", killed at ") +
                   point);
      sweep.record.points.push_back({point, false, ""});
      faulted_round(plan, sweep.record.points.back());
      if (HasFailure()) return;  // one fault's report is enough to debug
    }
    if (plan.fault == FaultKind::cut) {
      ASSERT_GT(cuts_made_, 0) << plan.file << ": the relay cut none of the "
                               << sweep.points.size()
                               << " points: every startup ended before its cut";
    }
    FaultSweeps::of_this_run().record(std::move(sweep.record));
  }

 private:
  // A fresh database at the old layout: the example at version 3, two tasks.
  std::unique_ptr<TestDatabase> old_layout_database() {
    std::unique_ptr<TestDatabase> db = fresh_database();
    const auto seeding = open_on(*db);
    seeding->ensure_schema(example_compiled());
    seeding->upsert_row("acme", "tasks", task_row("t1", "p1", "Write spec", false, 2));
    seeding->upsert_row("globex", "tasks", task_row("t2", "p9", std::nullopt, true, 5));
    return db;
  }

  // A storage of the candidate's on `db`, reaching its server through the relay.
  std::unique_ptr<storage::ServerStorage> open_relayed(TestDatabase& db) {
    DatabaseLocation relayed = db.location();
    relayed.pg_dsn = relay_->dsn();
    return candidate().open_server_storage(relayed, {});
  }

  // The points a clean startup passes; its marker is the new layout's.
  std::vector<std::string> clean_run(const FaultPlan& plan) {
    const auto db = old_layout_database();
    std::vector<std::string> reached;
    if (plan.fault == FaultKind::cut) {
      const auto relayed = open_relayed(*db);
      const std::int64_t before = relay_->request_round_trips();
      relayed->ensure_schema(compiled(startup_fault_bump()));
      reached = round_trip_cut_points(relay_->request_round_trips() - before);
    } else {
      StartupPoints points;
      open_on(*db, points.instrument({}, hooks_))->ensure_schema(compiled(startup_fault_bump()));
      reached = points.reached();
    }
    migrated_marker_ = marker_text(*db);
    EXPECT_THAT(migrated_marker_, ::testing::StartsWith("4|"))
        << "the clean startup of " << plan.file << " did not migrate to version 4";
    migrated_state_ = db->dump_all_tables();
    return reached;
  }

  // Kills the startup of `db` at ensure hook `point`.
  void kill_startup(TestDatabase& db, const std::string& point) {
    StartupPoints points;
    points.kill_at(point);
    const auto killed = open_on(db, points.instrument({}, hooks_));
    try {
      killed->ensure_schema(compiled(startup_fault_bump()));
      ADD_FAILURE() << "the startup never reached " << point
                    << ", which a clean startup of the same database passed";
    } catch (const CandidateKilled&) {
    }
  }

  // Cuts the startup's connection at `point`: it must complete or fail with
  // an error. One that never answers is recorded for FAULT-13
  // (fails-cleanly), and what it left is judged as after any other cut.
  // Returns the cut, for the trace of what follows.
  CutCall cut_startup(const FaultPlan& plan, TestDatabase& db, const std::string& point) {
    const auto relayed = open_relayed(db);
    const CutCall cut = cut_during(*relay_, point, [&] {
      relayed->ensure_schema(compiled(startup_fault_bump()));
    });
    if (cut.never_answered) {
      // Judged by FAULT-13 where the plan claims fails-cleanly.
      if (claims(plan, FaultCheck::fails_cleanly)) {
        UnansweredCalls::of_this_run().record(
            {plan.file, backend(), point, cut.last_statement_line() + "; " + *cut.never_answered});
      }
    } else if (!cut.cut) {
      // It ended before the point (pooled_client_rounds, round_trip_cuts.hpp):
      // judged as the clean startup it was.
      RecordProperty("uncut_" + point, cut.failure ? "failed: " + *cut.failure : "completed");
    } else {
      ++cuts_made_;
      RecordProperty("last_statement_" + point, cut.cut->last_statement);
    }
    return cut;
  }

  // Faults the startup of a database of its own at `outcome.point`, then
  // fills in what it saw.
  void faulted_round(const FaultPlan& plan, FaultPointOutcome& outcome) {
    const auto db = old_layout_database();
    const std::string before = db->dump_all_tables();
    std::optional<::testing::ScopedTrace> cut_trace;  // a cut's last statement
    if (plan.fault == FaultKind::cut) {
      cut_trace.emplace(__FILE__, __LINE__, cut_startup(plan, *db, outcome.point).last_statement_line());
    } else {
      kill_startup(*db, outcome.point);
    }
    if (HasFailure()) return;

    // A new process (a new connection) finds the old layout or the new one.
    const std::string after = db->dump_all_tables();
    outcome.committed = after != before;
    if (claims(plan, FaultCheck::untouched_before_commit) && plan.fault == FaultKind::kill) {
      EXPECT_TRUE(after == before) << "killed at " << outcome.point
                                   << ", before the startup could commit, the database changed:\n"
                                   << dump_difference(before, after);
    }
    if (claims(plan, FaultCheck::whole_or_none) && outcome.committed) {
      // The whole state, not the marker alone: a startup that commits the
      // marker first and migrates in a later transaction leaves the new
      // marker over the old tables when it dies between them.
      EXPECT_TRUE(after == migrated_state_)
          << "the database changed, but not into what a clean migration of the same database "
             "makes (tables, indexes, constraints, rows and marker): a startup that committed "
             "in part; how it differs from the clean migration:\n"
          << dump_difference(migrated_state_, after);
    }
    if (HasFailure()) return;

    // Its own startup completes: it migrates the old layout (applies-once), and
    // finds the new one complete, writing nothing (replays).
    const bool judges_the_next =
        claims(plan, outcome.committed ? FaultCheck::replays : FaultCheck::applies_once);
    if (!judges_the_next) return;
    const auto next = open_on(*db);
    try {
      next->ensure_schema(compiled(startup_fault_bump()));
    } catch (const std::exception& error) {
      ADD_FAILURE() << "the next startup of the same database failed: " << error.what();
      return;
    }
    const std::string settled = db->dump_all_tables();
    if (outcome.committed) {
      EXPECT_TRUE(settled == after)
          << "the faulted startup had migrated, yet the next startup changed the database:\n"
          << dump_difference(after, settled);
      outcome.retry = "found it migrated";
    } else {
      EXPECT_TRUE(settled == migrated_state_)
          << "the next startup did not migrate as a clean startup does; how it differs:\n"
          << dump_difference(migrated_state_, settled);
      outcome.retry = "migrated";
    }
    for (const auto& [partition, id] : {std::pair{"acme", "t1"}, std::pair{"globex", "t2"}}) {
      EXPECT_TRUE(next->get_row(partition, "tasks", id).has_value())
          << "after the next startup, tasks row " << id << " of " << partition << " is gone";
    }
  }

  std::optional<CapabilityGrant> hooks_;
  std::unique_ptr<PostgresRelay> relay_;  // cut plans only
  int cuts_made_ = 0;  // points of the cut sweep where the relay did cut
  std::string migrated_marker_;                      // what the clean startup's marker became
  std::string migrated_state_;  // dump_all_tables of the clean startup's database, migrated
};

// Last in the suite, so that the cut sweep has run: the startups among it
// that never answered.
class StartupSilenceJudge final : public StartupFaults {
 public:
  explicit StartupSilenceJudge(Backend backend) { made_for(backend); }
  void TestBody() override;
};

void StartupSilenceJudge::TestBody() {
  record_spec("§2.4", "FAULT-13");
  const SilenceVerdict verdict = judge_silences({"cut_startup.plan"}, backend(), "FAULT-9");
  if (verdict.skip) GTEST_SKIP() << *verdict.skip;
  if (verdict.failure) ADD_FAILURE() << *verdict.failure;
}

// The plans of storage.ensure, then the judge of their sweeps.
[[maybe_unused]] const bool kStartupPlansRegistered = defer_fault_plan_tests(
    "StartupFaults", {"storage.ensure"},
    [](const FaultPlan& plan, Backend backend) -> ::testing::Test* {
      return new FaultPlanTest<StartupFaults>(plan, backend);
    },
    {{"FAULT_13_AFaultedStartupNeverHangs",
      [](Backend backend) -> ::testing::Test* { return new StartupSilenceJudge(backend); }}});

}  // namespace
}  // namespace ssp::harness
