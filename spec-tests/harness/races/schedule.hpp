// A race written as data (spec-tests/races/schedules/*.schedule, docs/races.md): the
// sessions of one race, their named steps, the orders in which the steps are
// played (permutations) and what each order must leave behind, in the spirit
// of PostgreSQL's isolation tester. This is the file format and its parser
// only; schedule_runner.hpp plays a permutation through a candidate.
//
// The format, a line at a time (a '#' that begins a word starts a comment; indentation is free):
//
//   schedule    S1_LostUpdate               the name tests are called by
//   section     §6.3 §6.8                   SSP2 sections the race checks
//   title       A hand-rolled command loses a push's update
//   anomaly     text …                      what goes wrong (lines are joined)
//   setup       row t1 version 3 title X3 project p1
//   setup       member m1 email a@example.com  (a members row: unique email)
//   setup       isolation repeatable read   (PostgreSQL: every session's default)
//   session c   a hand-rolled command       then its steps:
//   step c_read read t1
//   permutation PUSH-R10 Locked on postgres sqlite: c_begin c_lock p_push(c_commit) …
//   expect      p_push   rejected conflict serverVersion 4
//   expect      a_go     applied seq ?s            (any seq; ?s the same one again
//   expect      b_go     cached seq ?s              wherever it is used: answer_pattern.hpp)
//
// Expectations name a step (its answer) or what the database holds: `row t1`,
// `changes t1`, `commits k1`, `seqs`, `segment SEGMENT-ID`; or what the play
// counted: `failed-sessions`, `row-validations`, `commit-validations`.
// A permutation names its requirement, a label and the backends it runs on;
// `step(other)` marks a step that must wait for a lock: the database is seen
// to hold it back, and it answers only once `other` has answered.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "harness/candidate/backend.hpp"

namespace ssp::harness {

// A schedule file that does not parse; what() starts with "FILE:LINE: ".
class ScheduleSyntaxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ScheduleStep {
  std::string name;
  std::string session;
  std::vector<std::string> words;  // the step's text, split at blanks
  std::string text() const;        // the words joined again
};

struct ScheduleSession {
  std::string name;
  std::string description;
  std::vector<std::string> steps;  // in declaration order
};

struct PermutationStep {
  std::string step;
  std::optional<std::string> waits_for;  // `step(other)`
};

struct Expectation {
  std::string subject;  // a step name, or "row t1", "changes t1", "commits k1", …
  std::string answer;
};

struct Permutation {
  std::string requirement;  // e.g. PUSH-R10
  std::string label;        // e.g. Locked
  std::vector<Backend> backends;
  std::vector<PermutationStep> steps;
  std::vector<Expectation> expectations;
  std::string written;  // the permutation line as written, for the docs
};

struct Schedule {
  std::string file;  // the file name, without directory
  std::string text;  // the file as written
  std::string name;
  std::vector<std::string> sections;
  std::string title;
  std::string anomaly;
  std::vector<std::vector<std::string>> setup;  // each setup line's words
  std::vector<ScheduleSession> sessions;
  std::map<std::string, ScheduleStep> steps;
  std::vector<Permutation> permutations;

  const ScheduleStep& step(const std::string& name) const;  // must exist
};

// Parses one schedule; `file` names it in errors. Checks that every name is
// declared once, that permutations name declared steps and backends, and that
// every permutation expects something. Throws ScheduleSyntaxError.
Schedule parse_schedule(std::string_view text, const std::string& file);

// Every *.schedule file of `directory`, sorted by file name. Throws
// ScheduleSyntaxError for the first that does not parse, or when the
// directory holds none; std::runtime_error naming a file that cannot be read.
std::vector<Schedule> load_schedules(const std::string& directory);

// The word after `key` in a step's or setup line's words (the value of the
// option `key`), or nothing.
std::optional<std::string> word_after(const std::vector<std::string>& words, std::string_view key);

// The directory of the project's schedules (spec-tests/races/schedules, as
// the data directory's schedules/). Throws DataDirectoryError without it.
std::string schedules_directory();

}  // namespace ssp::harness
