// Plays one permutation of a schedule (schedule.hpp) through a candidate, a
// session per storage it opens, and reports what happened. Order comes from
// the permutation alone: a step runs when the one before it has answered, or,
// for a step marked to wait, when the database shows it held back by a lock
// (TestDatabase::shows_lock_waits). Time only bounds a hang (the watchdog).
#pragma once

#include <chrono>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/backends/test_database.hpp"
#include "harness/candidate/candidate.hpp"
#include "harness/gates/capability_gate.hpp"
#include "harness/races/schedule.hpp"
#include "ssp/storage/schema.hpp"

namespace ssp::harness {

// A check of a play that failed, tagged by what the runner checked, so that a
// caller can tell the schedule's own checks (an expectation of what the
// candidate answered or stored, a step marked to wait) from a watchdog's.
struct PlayProblem {
  enum class Kind {
    // An `expect` line that what the candidate answered or stored does not meet.
    expectation,
    // An `expect` line of a step the runner answered itself (StepAnswer::from_runner):
    // no expectation of such a step tells anything about the candidate.
    expectation_of_runner_answer,
    // A step marked to wait answered at once, or before the step it waits for.
    answered_without_waiting,
    // The database (or the candidate's coordinator) never showed a marked step waiting.
    never_shown_waiting,
    // A step did not answer within the watchdog.
    watchdog,
  };
  Kind kind;
  std::string text;  // in words, as a failure message shows it
};
// The problem's text, and the kind's name: what GoogleTest prints for them.
std::ostream& operator<<(std::ostream& out, const PlayProblem& problem);
std::ostream& operator<<(std::ostream& out, PlayProblem::Kind kind);

struct PlayedPermutation {
  // One line per event, as the isolation tester prints them:
  // "step c_read: read t1 → version 3 title X3 project p1",
  // "step p_push: waiting", "step p_push: <completed> rejected …".
  std::vector<std::string> transcript;
  // Each expectation's subject with what was seen, in the schedule's order.
  std::vector<Expectation> observed;
  // What went wrong: a step that answered when it should have waited, one
  // the database never showed waiting, a watchdog, an expectation not met.
  // Empty when the permutation played as written.
  std::vector<PlayProblem> problems;
};

struct ScheduleStage {
  Candidate& candidate;
  TestDatabase& database;
  const storage::CompiledSchema& schema;       // push_schema(), compiled by the candidate
  const storage::CompiledSchema& next_schema;  // next_push_schema(), compiled by it
  std::optional<CapabilityGrant> push_hooks;   // for schedules that park a push or command
  std::optional<CapabilityGrant> hooks;        // for schedules that park an ensure or put
  std::chrono::seconds watchdog;
};

// Seeds the schedule's setup, plays `permutation` on a fresh set of
// sessions, then observes every expectation's subject through a storage of
// its own. Throws only for what is not the candidate's doing (a schedule
// that asks for what the runner does not know).
PlayedPermutation play_permutation(const Schedule& schedule, const Permutation& permutation,
                                   const ScheduleStage& stage);

// The parts of the candidate `permutation` of `schedule` uses, by the
// schedule's setup and the permutation's own steps and expectations, each
// once: its test skips unless the candidate has them all.
// Capability::push_hooks and Capability::hooks are among them only when a
// step the permutation plays parks at a point of theirs; a push parked at a
// validator (validate_row, validate_commit) needs neither, and a command with
// a validator needs Capability::command_callbacks.
std::vector<Capability> capabilities_needed(const Schedule& schedule,
                                            const Permutation& permutation);

}  // namespace ssp::harness
