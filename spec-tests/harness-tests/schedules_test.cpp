// The race schedules as the harness reads and plays them (schedule.hpp,
// schedule_runner.hpp): a malformed file is refused naming its line, every
// project schedule parses, and a play that goes other than written fails:
// a wrong expectation, a step that should wait but answers.
#include <gmock/gmock.h>

#include <algorithm>

#include "harness/candidate/reference_areas.hpp"
#include "harness/catalog/spec.hpp"
#include "harness/fixtures/push_fixtures.hpp"
#include "harness/races/answer_pattern.hpp"
#include "harness/races/played_session.hpp"
#include "harness/races/schedule.hpp"
#include "harness/races/schedule_runner.hpp"

namespace ssp::harness {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Optional;
using ::testing::StartsWith;

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
  EXPECT_THAT(play_on_sqlite(writer_and_push(waits, "expect p_push applied seq 7")).problems,
              Contains(HasSubstr("expect p_push applied seq 7: saw applied seq 1")));
  // A step marked to wait that answers at once (nothing holds a lock).
  EXPECT_THAT(play_on_sqlite(writer_and_push("permutation X L on sqlite: p_push(c_commit) c_open",
                                             "expect p_push applied seq 1"))
                  .problems,
              Contains(HasSubstr("p_push was to wait for a lock until c_commit answered, but "
                                 "answered at once")));
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
  EXPECT_THAT(play_on_sqlite(writer_and_push(push, "expect p_push applied seq ?p\n"
                                                   "expect changes t1 versions ?p"))
                  .problems,
              Contains("expect changes t1 versions ?p: saw versions 2 (?p met 1 before)"));
}

// The permutations that park a push in a validator and have a step wait
// for it, each played on SQLite as written (it passes) and with the waiting
// step moved first, unmarked (it must fail): their expectations tell the two
// orders apart, so a candidate that let the second push go first, instead of
// holding the partition while it validates, fails them.
TEST(ScheduleRunner, HARNESS_52_ARaceParkedAtACallbackFailsWhenItsOrderIsReversed) {
  record_spec("Harness", "HARNESS-52");
  const auto database_for_each_play = [] { return create_test_database(Backend::sqlite); };
  int reversed = 0;
  for (const Schedule& schedule : load_schedules(schedules_directory())) {
    for (const Permutation& permutation : schedule.permutations) {
      const auto plays_on_sqlite = std::find(permutation.backends.begin(),
                                             permutation.backends.end(), Backend::sqlite);
      const auto waiting = std::find_if(permutation.steps.begin(), permutation.steps.end(),
                                        [](const PermutationStep& step) {
                                          return step.waits_for.has_value();
                                        });
      const bool parks_at_a_callback = std::any_of(
          permutation.steps.begin(), permutation.steps.end(), [&](const PermutationStep& step) {
            const auto park = word_after(schedule.step(step.step).words, "park");
            return park && is_callback_park_point(*park);
          });
      // E-1 asserts only the wait (SQLite has one writer): its answers are the
      // same in either order, as its hook form's are.
      if (plays_on_sqlite == permutation.backends.end() || waiting == permutation.steps.end() ||
          !parks_at_a_callback || permutation.requirement == "E-1") {
        continue;
      }
      SCOPED_TRACE(schedule.file + ": " + permutation.written);
      Permutation backwards = permutation;
      backwards.steps.erase(backwards.steps.begin() + (waiting - permutation.steps.begin()));
      backwards.steps.insert(backwards.steps.begin(), PermutationStep{waiting->step, std::nullopt});
      const storage::CompiledSchema schema = compiled(push_schema());
      const storage::CompiledSchema next_schema = compiled(next_push_schema());
      for (const Permutation* played : {&permutation, static_cast<const Permutation*>(&backwards)}) {
        const auto database = database_for_each_play();
        const PlayedPermutation outcome = play_permutation(
            schedule, *played,
            ScheduleStage{reference_candidate(), *database, schema, next_schema, std::nullopt,
                          std::nullopt, std::chrono::seconds(20)});
        if (played == &permutation) {
          EXPECT_THAT(outcome.problems, IsEmpty()) << "as written";
        } else {
          EXPECT_THAT(outcome.problems, Not(IsEmpty())) << "reversed, it still played as written";
        }
      }
      ++reversed;
    }
  }
  EXPECT_GE(reversed, 6) << "the callback permutations that wait on SQLite";
}

}  // namespace
}  // namespace ssp::harness
