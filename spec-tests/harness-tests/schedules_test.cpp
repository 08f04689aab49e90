// The race schedules as the harness reads and plays them (schedule.hpp,
// schedule_runner.hpp): a malformed file is refused naming its line, every
// project schedule parses, and a play that goes other than written fails:
// a wrong expectation, a step that should wait but answers.
#include <gmock/gmock.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <pqxx/pqxx>
#include <thread>

#include "harness/candidate/reference_areas.hpp"
#include "harness/catalog/spec.hpp"
#include "harness/fixtures/push_fixtures.hpp"
#include "harness/gates/backend_gate.hpp"
#include "harness/races/answer_pattern.hpp"
#include "harness/races/played_session.hpp"
#include "harness/races/schedule.hpp"
#include "harness/races/schedule_runner.hpp"
#include "harness/util/eventually.hpp"
#include "harness/util/watchdog.hpp"

namespace ssp::harness {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Optional;
using ::testing::StartsWith;

// How long a play against a wrong candidate waits for a step that never shows
// waiting: the verdict ("never showed … waiting") is the same however long it
// waits, so it is short. A play that must pass waits kWatchdog, which no
// loaded machine reaches: a slow one shows the wait later, never not at all.
constexpr std::chrono::seconds kNeverShownWaiting{3};

// A schedule of one writer and one push on t1, with `permutation` and
// `expectations` appended.
std::string writer_and_push(const std::string& permutation, const std::string& expectations) {
  return "schedule  Tiny\nsection   §6.8\ntitle     t\nanomaly   a\n"
         "setup     row t1 version 1 title X project p1\n"
         "session c a writer\nstep c_open begin locked\nstep c_read read t1\n"
         "step c_write write t1 title C\n"
         "step c_commit commit\n"
         "session p a push\nstep p_push push k1 upsert t1 title P\n" +
         permutation + "\n" + expectations;
}

// The words of a play's problems, for matching.
std::vector<std::string> texts(const std::vector<PlayProblem>& problems) {
  std::vector<std::string> out;
  for (const PlayProblem& problem : problems) out.push_back(problem.text);
  return out;
}

// What the runner tagged a play's problems, in order.
std::vector<PlayProblem::Kind> kinds(const std::vector<PlayProblem>& problems) {
  std::vector<PlayProblem::Kind> out;
  for (const PlayProblem& problem : problems) out.push_back(problem.kind);
  return out;
}

std::string syntax_error_of(const std::string& text) {
  try {
    parse_schedule(text, "bad.schedule");
  } catch (const ScheduleSyntaxError& error) {
    return error.what();
  }
  return "";
}

TEST(ScheduleFormat, HARNESS_38_AMalformedScheduleIsRefusedNamingItsLine) {
  record_spec("Harness", "HARNESS-38");
  EXPECT_THAT(syntax_error_of(writer_and_push("permutation X L on sqlite: c_open nope", "")),
              StartsWith("bad.schedule:13: no step is called \"nope\""));
  EXPECT_THAT(syntax_error_of(writer_and_push("permutation X L on mysql: c_open", "")),
              StartsWith("bad.schedule:13: unknown backend \"mysql\""));
  EXPECT_THAT(syntax_error_of(writer_and_push("permutation X L on sqlite: c_open", "")),
              HasSubstr("permutation X L expects nothing"));
  EXPECT_THAT(syntax_error_of(writer_and_push("permutation X L on sqlite: c_open",
                                              "expect nothing_here 1")),
              StartsWith("bad.schedule:14: \"nothing_here\" is neither a step nor an observation"));
  EXPECT_THAT(syntax_error_of("schedule S\nsection §1\nsession c x\nstep c_a fly away\n"),
              StartsWith("bad.schedule:4: step c_a: unknown verb \"fly\""));
  EXPECT_THAT(syntax_error_of("schedule S\nsetup table t1\n"),
              StartsWith("bad.schedule:2: unknown setup \"table\""));
  EXPECT_THAT(syntax_error_of("schedule S\nsession c x\nstep c_a put d1 bytes\nstep c_b begin\n"),
              StartsWith("bad.schedule:4: session c mixes segment steps (put, get) with storage "
                         "steps"));
  EXPECT_THAT(syntax_error_of(writer_and_push("permutation X L on sqlite: p_push",
                                              "expect p_push applied seq ?")),
              StartsWith("bad.schedule:14: \"?\": a placeholder is ? and a name"));
  // Every schedule of the project parses.
  const auto schedules = load_schedules(schedules_directory());
  EXPECT_GE(schedules.size(), 10u);
}

// Plays `text`'s one permutation through the in-process reference on SQLite.
PlayedPermutation play_on_sqlite(const std::string& text) {
  const Schedule schedule = parse_schedule(text, "tiny.schedule");
  const auto database = create_test_database(Backend::sqlite);
  const storage::CompiledSchema schema = compiled(push_schema());
  const storage::CompiledSchema next_schema = compiled(next_push_schema());
  return play_permutation(schedule, schedule.permutations.front(),
                          ScheduleStage{reference_candidate(), *database, schema, next_schema,
                                        std::nullopt, std::nullopt, std::chrono::seconds(20)});
}

TEST(ScheduleRunner, HARNESS_39_APlayThatGoesOtherThanWrittenFails) {
  record_spec("Harness", "HARNESS-39");
  // As written: the push waits for the writer, then applies over its row.
  const std::string waits = "permutation X L on sqlite: c_open c_read c_write p_push(c_commit) c_commit";
  EXPECT_THAT(play_on_sqlite(writer_and_push(waits, "expect p_push applied seq 1\n"
                                                    "expect row t1 version 3 title P project p1"))
                  .problems,
              IsEmpty());
  // A wrong expectation.
  const PlayedPermutation wrong =
      play_on_sqlite(writer_and_push(waits, "expect p_push applied seq 7"));
  EXPECT_THAT(texts(wrong.problems),
              ElementsAre(HasSubstr("expect p_push applied seq 7: saw applied seq 1")));
  EXPECT_THAT(kinds(wrong.problems), ElementsAre(PlayProblem::Kind::expectation));
  // A step marked to wait that answers at once (nothing holds a lock).
  const PlayedPermutation at_once = play_on_sqlite(writer_and_push(
      "permutation X L on sqlite: p_push(c_commit) c_open", "expect p_push applied seq 1"));
  EXPECT_THAT(texts(at_once.problems),
              ElementsAre(HasSubstr("p_push was to wait for a lock until c_commit answered, but "
                                    "answered at once")));
  EXPECT_THAT(kinds(at_once.problems), ElementsAre(PlayProblem::Kind::answered_without_waiting));
  // A resume of a session with nothing parked: the runner answers it, not the
  // candidate, and says so of the expectation it misses.
  const PlayedPermutation nothing_parked = play_on_sqlite(
      "schedule  Tiny\nsection   §6.3\ntitle     t\nanomaly   a\n"
      "session a a push that never parks\n"
      "step a_push push k1 upsert t1 title A\n"
      "step a_go resume\n"
      "permutation X L on sqlite: a_push a_go\n"
      "expect a_push applied seq 1\n"
      "expect a_go applied seq 1\n");
  EXPECT_THAT(texts(nothing_parked.problems),
              ElementsAre(HasSubstr("expect a_go applied seq 1: saw fails")));
  EXPECT_THAT(kinds(nothing_parked.problems),
              ElementsAre(PlayProblem::Kind::expectation_of_runner_answer));
}

TEST(ScheduleRunner, HARNESS_51_APlaceholderIsOneSequenceNumberThroughoutAPermutation) {
  record_spec("Harness", "HARNESS-51");
  SeqBindings bindings;
  EXPECT_EQ(answer_mismatch("applied seq ?s", "applied seq 7", bindings), std::nullopt);
  EXPECT_EQ(bindings, (SeqBindings{{"?s", "7"}}));
  EXPECT_EQ(answer_mismatch("cached seq ?s", "cached seq 7", bindings), std::nullopt);
  EXPECT_THAT(answer_mismatch("cached seq ?s", "cached seq 8", bindings),
              Optional(std::string("?s met 7 before")));
  EXPECT_EQ(answer_mismatch("applied seq ?t", "applied seq 7", bindings), std::nullopt);
  for (const char* not_a_seq : {"applied seq 0", "applied seq 07", "applied seq -1", "applied seq x"}) {
    SeqBindings untouched = bindings;
    EXPECT_THAT(answer_mismatch("applied seq ?u", not_a_seq, untouched),
                Optional(HasSubstr("stands for a sequence number"))) << not_a_seq;
    EXPECT_EQ(untouched, bindings) << "a mismatch binds nothing";
  }
  EXPECT_THAT(answer_mismatch("applied seq ?s", "rejected conflict serverVersion 3", bindings),
              Optional(std::string()));
  EXPECT_THAT(answer_mismatch("applied seq 1", "applied seq 2", bindings), Optional(std::string()));

  // Played: the push's seq, whatever it is, is the one seq the log holds; the
  // row's version 3 is not that seq.
  const std::string push = "permutation X L on sqlite: p_push";
  EXPECT_THAT(play_on_sqlite(writer_and_push(push, "expect p_push applied seq ?p\n"
                                                   "expect seqs ?p"))
                  .problems,
              IsEmpty());
  EXPECT_THAT(texts(play_on_sqlite(writer_and_push(push, "expect p_push applied seq ?p\n"
                                                         "expect changes t1 versions ?p"))
                        .problems),
              Contains("expect changes t1 versions ?p: saw versions 2 (?p met 1 before)"));
}

// What SerializesInProcess says of the pushes waiting for its mutex.
enum class CoordinatorReport {
  none,         // it declares no coordinator: the database must show them waiting
  honest,       // a coordinator that counts the pushes waiting for the mutex
  always_zero,  // a coordinator that never shows anyone waiting
};

// The reference, but every push holds one process-wide mutex from start to
// end: pushes serialize outside the database, which shows none of them
// waiting. Without a report, a wrong candidate for HARNESS-53; with one, an
// in-process coordinator for HARNESS-59.
class SerializesInProcess final : public Candidate {
 public:
  explicit SerializesInProcess(CoordinatorReport report = CoordinatorReport::none)
      : report_(report) {}

  std::string name() const override { return "serializes-in-process"; }
  std::optional<int> calls_waiting_in_coordinator(const DatabaseLocation&) override {
    switch (report_) {
      case CoordinatorReport::none: return std::nullopt;
      case CoordinatorReport::honest: return push_.waiting();
      case CoordinatorReport::always_zero: return 0;
    }
    return std::nullopt;
  }
  bool supports(Backend backend) const override { return base_.supports(backend); }
  bool persists(Backend backend) const override { return base_.persists(backend); }
  std::unique_ptr<SegmentStore> open_segment_store(const DatabaseLocation& location,
                                                   const SegmentStoreOptions& options) override {
    return base_.open_segment_store(location, options);
  }
  std::unique_ptr<storage::ServerStorage> open_server_storage(
      const DatabaseLocation& location, const storage::ServerStorageOptions& options) override {
    return base_.open_server_storage(location, options);
  }
  ScopeArea& scope() override { return base_.scope(); }
  RowArea& rows() override { return base_.rows(); }
  SchemaArea& schema() override { return base_.schema(); }
  DownloadArea& download() override { return base_.download(); }
  SignedUrlArea& signed_urls() override { return base_.signed_urls(); }
  ErrorCatalogArea& error_catalog() override { return base_.error_catalog(); }
  PushArea& push() override { return push_; }
  CommandArea& commands() override { return base_.commands(); }

 private:
  class OneAtATime final : public PushArea {
   public:
    explicit OneAtATime(PushArea& base) : base_(base) {}
    push::PushAnswer push(storage::ServerStorage& storage, const storage::CompiledSchema& schema,
                          const push::PushActor& actor, const push::PushCommit& commit,
                          const push::PushOptions& options) override {
      std::unique_lock lock(mutex_, std::try_to_lock);
      if (!lock.owns_lock()) {
        ++waiting_;
        lock.lock();
        --waiting_;
      }
      return base_.push(storage, schema, actor, commit, options);
    }
    int waiting() const { return waiting_.load(); }

   private:
    PushArea& base_;
    std::mutex mutex_;
    std::atomic<int> waiting_{0};
  };

  const CoordinatorReport report_;
  Candidate& base_ = reference_candidate();
  OneAtATime push_{base_.push()};
};

// A candidate that serializes pushes outside the database and says so: a step
// counts as waiting once the candidate's coordinator counts it, and a
// coordinator that never shows it waiting fails the play, whatever the
// database shows (the reference beneath still takes its own lock).
TEST(ScheduleRunner, HARNESS_59_ACoordinatorsQueueIsWhereAStepIsSeenWaiting) {
  record_spec("Harness", "HARNESS-59");
  const std::string one_partition =
      "schedule  Tiny\nsection   §6.3\ntitle     t\nanomaly   a\n"
      "session a a push parked in its validator\n"
      "step a_push push k1 upsert t1 title A park validate_commit\n"
      "step a_go resume\n"
      "session b a second push to the same partition\n"
      "step b_push push k2 upsert t2 title B\n"
      "permutation X L on sqlite: a_push b_push(a_go) a_go\n"
      "expect a_go applied seq 1\n"
      "expect b_push applied seq 2\n";
  const Schedule schedule = parse_schedule(one_partition, "tiny.schedule");
  const storage::CompiledSchema schema = compiled(push_schema());
  const storage::CompiledSchema next_schema = compiled(next_push_schema());
  const auto play = [&](Candidate& candidate, std::chrono::seconds watchdog) {
    const auto database = create_test_database(Backend::sqlite);
    return play_permutation(schedule, schedule.permutations.front(),
                            ScheduleStage{candidate, *database, schema, next_schema, std::nullopt,
                                          std::nullopt, watchdog});
  };
  SerializesInProcess counted(CoordinatorReport::honest);
  const PlayedPermutation honest = play(counted, kWatchdog);
  EXPECT_THAT(honest.problems, IsEmpty());
  EXPECT_THAT(honest.transcript, Contains("step b_push: waiting"));
  SerializesInProcess silent(CoordinatorReport::always_zero);
  const PlayedPermutation never_shown = play(silent, kNeverShownWaiting);
  EXPECT_THAT(texts(never_shown.problems),
              Contains("the candidate's coordinator never showed b_push waiting for a lock"));
  EXPECT_THAT(kinds(never_shown.problems), Contains(PlayProblem::Kind::never_shown_waiting));
}

// The runner on PostgreSQL: a push that waits for the partition lock is seen
// waiting by its own session's application_name; one that waits on anything
// else is never seen so, and the play fails saying that.
TEST(ScheduleRunner, HARNESS_53_OnPostgresOnlyTheStepsOwnSessionShownWaitingCounts) {
  record_spec("Harness", "HARNESS-53");
  SSP_SKIP_UNLESS_BACKEND_READY(reference_candidate(), Backend::postgres);
  const storage::CompiledSchema schema = compiled(push_schema());
  const storage::CompiledSchema next_schema = compiled(next_push_schema());
  const auto play_on_postgres = [&](Candidate& candidate, const std::string& text,
                                    std::chrono::seconds watchdog) {
    const Schedule schedule = parse_schedule(text, "tiny.schedule");
    const auto database = create_test_database(Backend::postgres);
    return play_permutation(schedule, schedule.permutations.front(),
                            ScheduleStage{candidate, *database, schema, next_schema, std::nullopt,
                                          std::nullopt, watchdog});
  };
  EXPECT_THAT(play_on_postgres(reference_candidate(),
                               writer_and_push("permutation X L on postgres: c_open c_read "
                                               "c_write p_push(c_commit) c_commit",
                                               "expect p_push applied seq 1"),
                               kWatchdog)
                  .problems,
              IsEmpty());
  // b_push, to another partition, waits only for the candidate's own mutex.
  const std::string two_partitions =
      "schedule  Tiny\nsection   §6.3\ntitle     t\nanomaly   a\n"
      "session a a push parked in its validator\n"
      "step a_push push k1 partition acme upsert t1 title A park validate_commit\n"
      "step a_go resume\n"
      "session b a push to another partition\n"
      "step b_push push k2 partition beta upsert t1 title B\n"
      "permutation X L on postgres: a_push b_push(a_go) a_go\n"
      "expect b_push applied seq 1\n";
  SerializesInProcess serializes;
  EXPECT_THAT(texts(play_on_postgres(serializes, two_partitions, kNeverShownWaiting).problems),
              Contains("the database never showed b_push waiting for a lock"));

  // Which session waits: a lock held by one named connection, asked for by another.
  const auto database = create_test_database(Backend::postgres);
  const DatabaseLocation& where = database->location();
  database->exec("CREATE TABLE contended (x int)");
  const auto named = [&](const std::string& session) {
    return std::make_unique<pqxx::connection>(where.pg_dsn + " application_name=" +
                                              where.pg_schema + "/" + session);
  };
  const auto holder = named("holder");
  pqxx::work holding(*holder);
  holding.exec("LOCK TABLE " + where.pg_schema + ".contended IN ACCESS EXCLUSIVE MODE");
  std::thread asker([&, waiter = named("waiter")] {
    pqxx::work asking(*waiter);
    asking.exec("LOCK TABLE " + where.pg_schema + ".contended IN ACCESS EXCLUSIVE MODE");
  });
  const std::string waiter = where.pg_schema + "/waiter";
  EXPECT_TRUE(eventually([&] { return database->shows_sessions_waiting({waiter}); },
                         std::chrono::seconds(20)));
  EXPECT_FALSE(database->shows_sessions_waiting({where.pg_schema + "/holder"}));
  EXPECT_FALSE(database->shows_sessions_waiting({waiter, where.pg_schema + "/holder"}));
  holding.commit();
  asker.join();
}

// Whether a step of the permutation parks a push in a validator it calls.
bool parks_at_a_callback(const Schedule& schedule, const Permutation& permutation) {
  return std::any_of(permutation.steps.begin(), permutation.steps.end(),
                     [&](const PermutationStep& step) {
                       const auto park = word_after(schedule.step(step.step).words, "park");
                       return park && is_callback_park_point(*park);
                     });
}

// Whether a raw transaction of the permutation holds a push result's key and
// rolls back: what a push that stores under that key waits for.
bool holds_a_result_key(const Schedule& schedule, const Permutation& permutation) {
  std::set<std::string> holders;
  for (const PermutationStep& step : permutation.steps) {
    const ScheduleStep& declared = schedule.step(step.step);
    if (declared.words[0] == "put-result") holders.insert(declared.session);
    if (declared.words[0] == "rollback" && holders.count(declared.session) != 0) return true;
  }
  return false;
}

// The problems of a reversed play that its own checks found: an expectation
// of what the candidate answered or stored that it does not meet, or a step it
// marks to wait that answered without waiting. An expectation of a resume
// step whose session, played second, never parked is not one of them: the
// runner answers that resume itself ("fails … has no parked call"), so any
// expectation of it misses whatever the candidate did. Nor is a watchdog's.
std::vector<std::string> own_check_problems(const PlayedPermutation& outcome) {
  std::vector<std::string> own;
  for (const PlayProblem& problem : outcome.problems) {
    if (problem.kind == PlayProblem::Kind::expectation ||
        problem.kind == PlayProblem::Kind::answered_without_waiting) {
      own.push_back(problem.text);
    }
  }
  return own;
}

// Plays every permutation `chosen` picks that marks a step to wait and plays
// on `backend`, through the reference: as written it must play, and with its
// first waiting step moved to the front a check of its own must fail
// (own_check_problems): a reversal caught only by its leftover resume would
// pass whatever the candidate did. Returns how many.
int reverse_each(Backend backend,
                 const std::function<bool(const Schedule&, const Permutation&)>& chosen) {
  const storage::CompiledSchema schema = compiled(push_schema());
  const storage::CompiledSchema next_schema = compiled(next_push_schema());
  int reversed = 0;
  for (const Schedule& schedule : load_schedules(schedules_directory())) {
    for (const Permutation& permutation : schedule.permutations) {
      const auto& backends = permutation.backends;
      const auto waiting = std::find_if(permutation.steps.begin(), permutation.steps.end(),
                                        [](const PermutationStep& step) {
                                          return step.waits_for.has_value();
                                        });
      if (std::find(backends.begin(), backends.end(), backend) == backends.end() ||
          waiting == permutation.steps.end() || !chosen(schedule, permutation)) {
        continue;
      }
      SCOPED_TRACE(schedule.file + ": " + permutation.written);
      Permutation backwards = permutation;
      backwards.steps.erase(backwards.steps.begin() + (waiting - permutation.steps.begin()));
      backwards.steps.insert(backwards.steps.begin(), PermutationStep{waiting->step, std::nullopt});
      for (const Permutation* played : {&permutation, static_cast<const Permutation*>(&backwards)}) {
        const auto database = create_test_database(backend);
        const PlayedPermutation outcome = play_permutation(
            schedule, *played,
            ScheduleStage{reference_candidate(), *database, schema, next_schema, std::nullopt,
                          std::nullopt, std::chrono::seconds(20)});
        if (played == &permutation) {
          EXPECT_THAT(outcome.problems, IsEmpty()) << "as written";
        } else {
          EXPECT_THAT(own_check_problems(outcome), Not(IsEmpty()))
              << "reversed, no check of its own (an expectation, a marked wait) told the two "
                 "orders apart; its problems: "
              << ::testing::PrintToString(outcome.problems);
        }
      }
      ++reversed;
    }
  }
  return reversed;
}

// The permutations that park a push in a validator and have a step wait
// for it, each played on SQLite as written (it passes) and with the waiting
// step moved first, unmarked (it must fail): their expectations tell the two
// orders apart, so a candidate that let the second push go first, instead of
// holding the partition while it validates, fails them. The `_BehindTheLock`
// forms park no push: both deliveries answer the same whichever goes first,
// and what they assert is the wait, which the runner reads from the database.
//
// Left out, because reversed they give the same answers and mark no other
// wait: E-1 (SQLite has one writer: what it asserts is the wait itself), and
// two deliveries of one rejected commit, PUSH-R2, PUSH-R2-022 and PUSH-R11's
// RejectedOnce (whichever goes first is rejected and stores it, and the other
// answers that stored rejection). What they guard is what the second delivery
// answers, which a candidate that runs the pipeline again gets wrong in
// either order.
bool tells_its_orders_apart(const Schedule& schedule, const Permutation& permutation) {
  static const std::set<std::string> order_blind = {"E-1", "PUSH-R2", "PUSH-R2-022"};
  const bool same_rejection_twice =
      permutation.requirement == "PUSH-R11" && permutation.label.starts_with("RejectedOnce");
  return parks_at_a_callback(schedule, permutation) &&
         order_blind.count(permutation.requirement) == 0 && !same_rejection_twice;
}

TEST(ScheduleRunner, HARNESS_52_ARaceParkedAtACallbackFailsWhenItsOrderIsReversed) {
  record_spec("Harness", "HARNESS-52");
  EXPECT_GE(reverse_each(Backend::sqlite, tells_its_orders_apart), 10)
      << "the callback permutations that wait on SQLite";
}

// The same on PostgreSQL, where some permutations play only there (PUSH-R11's
// under the default isolation).
TEST(ScheduleRunner, HARNESS_52_OnPostgresTooARaceParkedAtACallbackFailsReversed) {
  record_spec("Harness", "HARNESS-52");
  SSP_SKIP_UNLESS_BACKEND_READY(reference_candidate(), Backend::postgres);
  EXPECT_GE(reverse_each(Backend::postgres, tells_its_orders_apart), 11)
      << "the callback permutations that wait on PostgreSQL";
}

TEST(ScheduleRunner, HARNESS_54_ARaceHeldBehindAResultKeyFailsWhenItsOrderIsReversed) {
  record_spec("Harness", "HARNESS-54");
  SSP_SKIP_UNLESS_BACKEND_READY(reference_candidate(), Backend::postgres);
  const int reversed = reverse_each(Backend::postgres, holds_a_result_key);
  EXPECT_GE(reversed, 3) << "the permutations held behind a result key, on PostgreSQL";
}

}  // namespace
}  // namespace ssp::harness
