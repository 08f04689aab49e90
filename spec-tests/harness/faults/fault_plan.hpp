// A fault plan written as data (spec-tests/faults/plans/*.plan, docs/faults.md):
// which call is faulted, how, at which of its points, and what is checked
// after, so that a reader sees every fault the suite tries. This is the file
// format and its parser, and the choice of points; the fault tests
// (spec-tests/faults/) play a plan through a candidate.
//
// The format, a line at a time (a '#' that begins a word starts a comment):
//
//   plan         KillAppliedPush          the name the tests load it by
//   requirement  FAULT-1                  the row of docs/requirements/faults.md
//   section      §6.4 §2.3                SSP2 sections it checks
//   title        A push killed at any callback …
//   test         AnAppliedPushKilled…    the test's name after its requirement
//                                         id (FAULT_1_AnAppliedPushKilled…): the
//                                         plan registers it (fault_plan_tests.hpp)
//   call         push.run applied         the call: push.run, whose clean answer is
//                                         applied or rejected; command.run applied
//                                         (a registered remote command);
//                                         segments.put published; storage.ensure
//                                         migrated (a startup that migrates)
//   fault        kill                     kill: the process dies at the point;
//                                         lose-answer: the call answers, the answer
//                                         is dropped and the process killed;
//                                         cut: PostgreSQL only, the connection is
//                                         cut at a round trip (the relay of
//                                         postgres_relay.hpp)
//   points       validate_row#* hook:* …  the points faulted, among those a clean
//                                         run passes (push_callback_points.hpp):
//                                         NAME#N, NAME#* (every call), NAME#last,
//                                         hook:NAME, hook:* (any PREFIX:*); a
//                                         put's are hasher#N and put-hook:NAME
//                                         (segment_put_points.hpp); a startup's
//                                         ensure-hook:NAME (startup_points.hpp);
//                                         a cut's are
//                                         round-trip#N/before-request and
//                                         round-trip#N/after-answer; lose-answer's
//                                         one point is `answer`
//   subset       validate_row#1 …         the points of the quick sweep
//   check        untouched-before-commit  what is checked after each fault, from
//                                         fault_check_name()'s words
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ssp::harness {

// A plan file that does not parse; what() starts with "FILE:LINE: ".
class FaultPlanSyntaxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class FaultKind { kill, lose_answer, cut };

// What a fault test checks after a fault, each a sentence of docs/faults.md.
enum class FaultCheck {
  fails_cleanly,            // the faulted call answers as a clean one did, or fails with an error
  untouched_before_commit,  // killed before its commit: the database is byte for byte as before
  whole_or_none,            // the database holds all of the push's commit or nothing of it
  applies_once,             // nothing committed: the same push then applies (or is rejected) once
  replays,                  // the commit is durable: the same push answers cached, its seq, its results
};
// The plan file's word for `check`, e.g. "whole-or-none".
std::string_view fault_check_name(FaultCheck check);
// The words of `checks` in their order, as a plan's `check` line writes them.
std::string fault_checks_text(const std::vector<FaultCheck>& checks);

struct FaultPlan {
  std::string file;  // the file name, without directory
  std::string text;  // the file as written
  std::string name;
  std::string requirement;
  std::vector<std::string> sections;
  std::string title;
  std::string test;  // the test's name after its requirement id: letters and digits
  std::string call;            // "push.run", "command.run", "segments.put" or "storage.ensure"
  std::string clean_answer;    // "applied" or "rejected"; a put's "published"; "migrated"
  FaultKind fault = FaultKind::kill;
  std::vector<std::string> points;  // patterns
  std::vector<std::string> subset;  // patterns
  std::vector<FaultCheck> checks;   // in the file's order
};

// Whether `plan` claims `check` on its `check` line. An engine plays a check
// only where its plan claims it: the line is what runs, not a description.
bool claims(const FaultPlan& plan, FaultCheck check);

// Why `plan` cannot be played by an engine that can check, after its fault,
// only `playable`: its first claimed check that is not among them, in words
// naming the plan's file; nullopt when every claim can be played.
std::optional<std::string> unplayable_check(const FaultPlan& plan,
                                            const std::vector<FaultCheck>& playable);

// The name of the test that plays `plan`: its requirement id with '_' for
// '-', then its `test` name ("FAULT_1_AnAppliedPush…").
std::string fault_plan_test_name(const FaultPlan& plan);

// Parses one plan; `file` names it in errors. Every keyword but subset is
// required once; checks are words of fault_check_name. Throws
// FaultPlanSyntaxError.
FaultPlan parse_fault_plan(std::string_view text, const std::string& file);

// Every *.plan file of `directory`, sorted by file name. Throws
// FaultPlanSyntaxError for the first that does not parse, when two share a
// name, or when the directory holds none.
std::vector<FaultPlan> load_fault_plans(const std::string& directory);

// The plan `name` of load_fault_plans(directory); FaultPlanSyntaxError when
// none is called so.
FaultPlan load_fault_plan(const std::string& directory, const std::string& name);

// The directory of the project's plans (spec-tests/faults/plans, as the data
// directory's fault-plans/). Throws DataDirectoryError without it.
std::string fault_plans_directory();

// How many points a sweep tries: every point the plan names, or only its subset.
enum class FaultSweep { full, subset };
// SSP_FAULT_SWEEP: "subset", or "full" (the default). Another value throws
// std::invalid_argument naming it.
FaultSweep fault_sweep_of_environment();

// Whether `point` (e.g. "validate_row#2", "round-trip#3/after-answer")
// matches `pattern`: the same name and text after the ordinal, and the same
// ordinal or `*`; PREFIX:* matches every point that starts with PREFIX:
// (hook:*, put-hook:*). (`#last` is resolved by
// choose_fault_points.)
bool point_matches(std::string_view pattern, std::string_view point);

// The points of `reached` (a clean run's, in order) that the sweep faults;
// `NAME#last…` stands for the highest ordinal of NAME…, with the same text
// after it, that `reached` holds.
struct FaultPoints {
  std::vector<std::string> chosen;
  std::vector<std::string> unmatched_patterns;  // patterns no reached point matched
};
FaultPoints choose_fault_points(const FaultPlan& plan, const std::vector<std::string>& reached,
                                FaultSweep sweep);

}  // namespace ssp::harness
