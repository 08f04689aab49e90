#include "harness/races/schedule_runner.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "harness/backends/default_isolation.hpp"
#include "harness/errors/harness_error.hpp"
#include "harness/races/answer_pattern.hpp"
#include "harness/races/played_session.hpp"
#include "harness/util/eventually.hpp"
#include "harness/util/require_found.hpp"

namespace ssp::harness {
namespace {

constexpr const char* kPartition = "acme";

// The application_name of `session`'s connections on PostgreSQL: the test's
// schema, a slash, the session's name. By it the database shows which
// session waits, whatever lock it waits for (shows_sessions_waiting).
std::string application_name_of(const DatabaseLocation& base, const std::string& session) {
  return base.pg_schema + "/" + session;
}

// Where `session` connects: the test's database, with the schedule's
// `setup isolation LEVEL` as every PostgreSQL session's default
// (with_default_isolation), as if the database had been configured so, and
// on PostgreSQL the session's own application_name.
DatabaseLocation session_location(const Schedule& schedule, const DatabaseLocation& base,
                                  const std::string& session) {
  DatabaseLocation location = base;
  if (location.backend == Backend::postgres) {
    location.pg_dsn += " application_name=" + application_name_of(base, session);
  }
  for (const auto& words : schedule.setup) {
    if (words[0] != "isolation") continue;
    std::string level;
    for (std::size_t i = 1; i < words.size(); ++i) level += (i > 1 ? " " : "") + words[i];
    location = with_default_isolation(location, level);
  }
  return location;
}

// The schema the database holds once every step has run: the next version
// where a step ensures it.
const storage::CompiledSchema& final_schema(const Schedule& schedule, const ScheduleStage& stage) {
  for (const auto& [name, step] : schedule.steps) {
    if (step.words[0] == "ensure" &&
        std::find(step.words.begin(), step.words.end(), "next") != step.words.end()) {
      return stage.next_schema;
    }
  }
  return stage.schema;
}

// `setup row ID version N title T project P` and `setup member ID email E`:
// written through a storage of the candidate's, row by row with its
// storage-level write, without a commit (the race starts from them), so that
// a candidate without raw transactions (a storage serialized by a
// coordinator) plays every schedule its steps allow. Nothing is opened when
// there are none: a race of servers starting begins from an empty database,
// and one of puts needs no storage.
void seed_rows(const Schedule& schedule, const ScheduleStage& stage) {
  std::vector<NamedRow> rows;
  for (const auto& words : schedule.setup) {
    if (words[0] != "row" && words[0] != "member") continue;  // setup isolation
    rows.push_back(named_row(stage.candidate, stage.schema, words[1], words[0] == "member", words,
                             std::stoll(word_after(words, "version").value_or("1"))));
  }
  if (rows.empty()) return;
  auto storage = require_opened(
      stage.candidate.open_server_storage(stage.database.location(), {}), "server storage");
  storage->ensure_schema(stage.schema);
  for (const NamedRow& row : rows) storage->upsert_row(kPartition, row.table, row.row);
}

// One permutation being played: its sessions, the steps started and not yet
// answered, and every answer.
class Play {
 public:
  Play(const Schedule& schedule, const Permutation& permutation, const ScheduleStage& stage)
      : schedule_(schedule),
        permutation_(permutation),
        stage_(stage),
        coordinated_(
            stage.candidate.calls_waiting_in_coordinator(stage.database.location()).has_value()) {
    // Only the sessions the permutation plays: what it needs of the candidate
    // is what its own steps use (capabilities_needed).
    for (const auto& declaration : schedule.sessions) {
      const bool played = std::any_of(
          permutation.steps.begin(), permutation.steps.end(), [&](const PermutationStep& step) {
            return schedule.step(step.step).session == declaration.name;
          });
      if (!played) continue;
      const PlayedSession::Setting setting{
          stage.candidate,
          session_location(schedule, stage.database.location(), declaration.name),
          stage.schema,
          stage.next_schema,
          stage.push_hooks,
          stage.hooks,
          validations_};
      sessions_.emplace(declaration.name,
                        std::make_unique<PlayedSession>(setting, schedule, declaration));
    }
  }

  // Lets every session go before any is destroyed: a session's thread may
  // wait for a lock another one holds.
  ~Play() {
    for (auto& [name, session] : sessions_) session->release();
  }

  void run(PlayedPermutation& played) {
    played_ = &played;
    for (const auto& step : permutation_.steps) {
      if (!play(step) || !settle()) return;
    }
    for (const auto& waiting : std::vector(waiting_)) {
      if (!await(waiting.step)) return;
    }
  }

  const std::map<std::string, StepAnswer>& answers() const { return answers_; }

  // The play's own subjects: how many sessions had a step fail, how often
  // the pushes' validators were called.
  std::map<std::string, std::string> tallies() const {
    std::set<std::string> failed;
    for (const auto& [step, answer] : answers_) {
      if (answer.failed) failed.insert(schedule_.step(step).session);
    }
    return {{"failed-sessions", std::to_string(failed.size())},
            {"row-validations", std::to_string(validations_.row.load())},
            {"commit-validations", std::to_string(validations_.commit.load())}};
  }

 private:
  PlayedSession& session_of(const std::string& step) {
    return *sessions_.at(declared_session(step));
  }
  const std::string& declared_session(const std::string& step) const {
    return schedule_.step(step).session;
  }

  void problem(PlayProblem::Kind kind, const std::string& text) {
    played_->problems.push_back(PlayProblem{kind, text});
  }

  bool play(const PermutationStep& step) {
    if (!none_answered_early()) return false;
    PlayedSession& session = session_of(step.step);
    // A session plays one step at a time: one that waits is answered first.
    for (const auto& waiting : std::vector(waiting_)) {
      if (&session_of(waiting.step) == &session && !await(waiting.step)) return false;
    }
    const ScheduleStep& declared = schedule_.step(step.step);
    played_->transcript.push_back("step " + step.step + ": " + declared.text());
    const int waiters = static_cast<int>(waiting_.size()) + 1;
    // On PostgreSQL the step's own session must be among those shown waiting,
    // beside the sessions already waiting.
    std::vector<std::string> waiting_sessions{
        application_name_of(stage_.database.location(), declared_session(step.step))};
    for (const auto& waiting : waiting_) {
      waiting_sessions.push_back(
          application_name_of(stage_.database.location(), declared_session(waiting.step)));
    }
    // SQLite shows only a held write lock: a step can wait only if another
    // session holds it before the step starts. A candidate with a coordinator
    // serializes outside the database, and counts who waits in its queue.
    const bool sees_only_a_held_lock =
        !coordinated_ &&
        stage_.database.lock_wait_evidence() == TestDatabase::LockWaitEvidence::held_write_lock;
    const bool lock_held_before =
        step.waits_for && sees_only_a_held_lock && stage_.database.shows_lock_waits(waiters);
    session.start(declared);
    if (!step.waits_for) return await(step.step);
    if (sees_only_a_held_lock && !lock_held_before) {
      if (!await(step.step)) return false;
      return answered_without_waiting(step, answers_.at(step.step),
                                      "at once (no session held the write lock)");
    }
    const bool held = eventually(
        [&] {
          return session.answer().has_value() ||
                 (coordinated_ ? coordinator_shows_waiting(waiters)
                               : stage_.database.shows_sessions_waiting(waiting_sessions));
        },
        stage_.watchdog);
    if (const auto early = session.answer()) {
      record(step.step, *early);
      return answered_without_waiting(step, *early, "at once");
    }
    if (!held) {
      problem(PlayProblem::Kind::never_shown_waiting,
              (coordinated_ ? "the candidate's coordinator never showed "
                            : "the database never showed ") +
                  step.step + " waiting for a lock");
      return false;
    }
    played_->transcript.push_back("step " + step.step + ": waiting");
    waiting_.push_back(step);
    return true;
  }

  // Whether the candidate's coordinator counts at least `waiters` calls
  // waiting in its queue for the test's database.
  bool coordinator_shows_waiting(int waiters) {
    const auto waiting = stage_.candidate.calls_waiting_in_coordinator(stage_.database.location());
    return waiting && *waiting >= waiters;
  }

  // Reports a step marked to wait that answered `when` instead; false.
  bool answered_without_waiting(const PermutationStep& step, const StepAnswer& answer,
                                const std::string& when) {
    problem(PlayProblem::Kind::answered_without_waiting,
            step.step + " was to wait for a lock until " + *step.waits_for +
                " answered, but answered " + when + ": " + answer.text + describe(answer));
    return false;
  }

  // A waiting step answers only after the step it waits for: one that has
  // answered before is a step that never waited (SQLite cannot show waiting
  // directly, so this is where a step that did not wait is caught there).
  // Steps that wait for each other (a deadlock) may answer in either order.
  bool none_answered_early() {
    for (const auto& waiting : waiting_) {
      const std::string& release = *waiting.waits_for;
      if (answers_.count(release) != 0 || waits_on(release, waiting.step)) continue;
      if (const auto early = session_of(waiting.step).answer()) {
        record(waiting.step, *early);
        return answered_without_waiting(waiting, *early, "before it");
      }
    }
    return true;
  }

  // Whether `step` waits, directly or through other waiting steps, for `other`.
  bool waits_on(const std::string& step, const std::string& other) const {
    std::set<std::string> seen;
    for (std::string at = step; seen.insert(at).second;) {
      const auto waiting = std::find_if(waiting_.begin(), waiting_.end(),
                                        [&](const PermutationStep& w) { return w.step == at; });
      if (waiting == waiting_.end()) return false;
      if (*waiting->waits_for == other) return true;
      at = *waiting->waits_for;
    }
    return false;
  }

  // Every waiting step whose release has answered must answer now.
  bool settle() {
    for (bool again = true; again;) {
      again = false;
      for (const auto& waiting : std::vector(waiting_)) {
        if (answers_.count(*waiting.waits_for) == 0) continue;
        if (!await(waiting.step)) return false;
        again = true;
      }
    }
    return true;
  }

  bool await(const std::string& step) {
    const auto answer = session_of(step).await(stage_.watchdog);
    const bool was_waiting = std::erase_if(waiting_, [&](const PermutationStep& waiting) {
                               return waiting.step == step;
                             }) != 0;
    if (!answer) {
      problem(PlayProblem::Kind::watchdog,
              step + " did not answer within " + std::to_string(stage_.watchdog.count()) +
                  " s (the watchdog)");
      return false;
    }
    record(step, *answer, was_waiting);
    return true;
  }

  static std::string describe(const StepAnswer& answer) {
    return answer.detail.empty() ? "" : " (" + answer.detail + ")";
  }

  void record(const std::string& step, const StepAnswer& answer, bool was_waiting = false) {
    answers_[step] = answer;
    played_->transcript.push_back("step " + step + ": " + (was_waiting ? "<completed> " : "→ ") +
                                  answer.text + describe(answer));
  }

  const Schedule& schedule_;
  const Permutation& permutation_;
  const ScheduleStage& stage_;
  // Whether the candidate serializes pushes in a coordinator of its own, not
  // by the database's locks.
  const bool coordinated_;
  ValidationCounts validations_;  // before the sessions, which count into it
  std::map<std::string, std::unique_ptr<PlayedSession>> sessions_;
  std::vector<PermutationStep> waiting_;
  std::map<std::string, StepAnswer> answers_;
  PlayedPermutation* played_ = nullptr;
};

// What the database holds after the race, read through a storage or store
// of the candidate's, for one expectation's subject. Each is opened at the
// first subject that needs it.
class Observer {
 public:
  Observer(const Schedule& schedule, const ScheduleStage& stage)
      : stage_(stage), schema_(final_schema(schedule, stage)) {}

  // The database subjects: row, changes, commits, seqs, segment.
  std::string observe(const std::string& subject) {
    const auto space = subject.find(' ');
    const std::string kind = subject.substr(0, space);
    const std::string argument = space == std::string::npos ? "" : subject.substr(space + 1);
    if (kind == "row") {
      return row_text(stage_.candidate, schema_, storage().get_row(kPartition, "tasks", argument));
    }
    if (kind == "changes") return changes_of(argument);
    if (kind == "commits") {
      const auto& all = commits();
      return std::to_string(std::count_if(all.begin(), all.end(), [&](const auto& c) {
        return c.entry.client_commit_id == argument;
      }));
    }
    if (kind == "seqs") {
      std::string seqs;
      for (const auto& commit : commits()) {
        seqs += (seqs.empty() ? "" : " ") + std::to_string(commit.commit_seq);
      }
      return seqs.empty() ? "none" : seqs;
    }
    if (kind == "segment") return segment_of(argument);
    throw HarnessError("schedule: unknown subject \"" + subject + "\"");
  }

 private:
  storage::ServerStorage& storage() {
    if (!storage_) {
      storage_ = require_opened(
          stage_.candidate.open_server_storage(stage_.database.location(), {}), "server storage");
      storage_->ensure_schema(schema_);
    }
    return *storage_;
  }

  const std::vector<storage::Commit>& commits() {
    if (!commits_) commits_ = storage().read_commit_window(kPartition, 0, 1'000);
    return *commits_;
  }

  // "versions 4 4": the rowVersion of every upsert change of the row, in seq order.
  std::string changes_of(const std::string& row_id) {
    std::string versions;
    for (const auto& commit : commits()) {
      for (const auto& change : commit.entry.changes) {
        if (change.row_id != row_id || !change.row_version) continue;
        versions += " " + std::to_string(*change.row_version);
      }
    }
    return versions.empty() ? "none" : "versions" + versions;
  }

  std::string segment_of(const std::string& segment_id) {
    if (!store_) {
      store_ = require_opened(stage_.candidate.open_segment_store(stage_.database.location(), {}),
                              "segment store");
    }
    return segment_text(store_->get(segment_id));
  }

  const ScheduleStage& stage_;
  const storage::CompiledSchema& schema_;
  std::unique_ptr<storage::ServerStorage> storage_;
  std::unique_ptr<SegmentStore> store_;
  std::optional<std::vector<storage::Commit>> commits_;
};

}  // namespace

std::ostream& operator<<(std::ostream& out, const PlayProblem& problem) {
  return out << problem.text;
}

std::ostream& operator<<(std::ostream& out, PlayProblem::Kind kind) {
  switch (kind) {
    case PlayProblem::Kind::expectation: return out << "expectation";
    case PlayProblem::Kind::expectation_of_runner_answer:
      return out << "expectation_of_runner_answer";
    case PlayProblem::Kind::answered_without_waiting: return out << "answered_without_waiting";
    case PlayProblem::Kind::never_shown_waiting: return out << "never_shown_waiting";
    case PlayProblem::Kind::watchdog: return out << "watchdog";
  }
  return out << "PlayProblem::Kind(" << static_cast<int>(kind) << ")";
}

PlayedPermutation play_permutation(const Schedule& schedule, const Permutation& permutation,
                                   const ScheduleStage& stage) {
  PlayedPermutation played;
  seed_rows(schedule, stage);
  std::map<std::string, StepAnswer> answers;
  std::map<std::string, std::string> tallies;
  {
    Play play(schedule, permutation, stage);
    play.run(played);
    answers = play.answers();
    tallies = play.tallies();
  }  // every session released and closed before the database is read
  if (!played.problems.empty()) return played;

  Observer observer(schedule, stage);
  SeqBindings bindings;
  for (const auto& expectation : permutation.expectations) {
    std::string seen;
    bool runner_answered = false;
    if (const auto tally = tallies.find(expectation.subject); tally != tallies.end()) {
      seen = tally->second;
    } else if (schedule.steps.count(expectation.subject) != 0) {
      const auto answer = answers.find(expectation.subject);
      seen = answer == answers.end() ? "never played" : answer->second.text;
      runner_answered = answer != answers.end() && answer->second.from_runner;
    } else {
      seen = observer.observe(expectation.subject);
    }
    played.observed.push_back(Expectation{expectation.subject, seen});
    if (const auto why = answer_mismatch(expectation.answer, seen, bindings)) {
      played.problems.push_back(PlayProblem{
          runner_answered ? PlayProblem::Kind::expectation_of_runner_answer
                          : PlayProblem::Kind::expectation,
          "expect " + expectation.subject + " " + expectation.answer + ": saw " + seen +
              (why->empty() ? "" : " (" + *why + ")")});
    }
  }
  return played;
}

std::vector<Capability> capabilities_needed(const Schedule& schedule,
                                            const Permutation& permutation) {
  std::vector<Capability> needed;
  const auto need = [&needed](std::initializer_list<Capability> capabilities) {
    for (const Capability capability : capabilities) {
      if (std::find(needed.begin(), needed.end(), capability) == needed.end()) {
        needed.push_back(capability);
      }
    }
  };
  // Rows (tasks, members), written or read through a server storage.
  const auto need_rows = [&need] {
    need({Capability::server_storage, Capability::schema, Capability::rows});
  };
  for (const auto& words : schedule.setup) {
    if (words[0] == "row" || words[0] == "member") need_rows();
  }
  for (const PermutationStep& played : permutation.steps) {
    const ScheduleStep& step = schedule.step(played.step);
    const std::string& verb = step.words[0];
    const auto park = word_after(step.words, "park");
    const bool parks = park.has_value();
    // A push parked at a validator needs only the push area; H0 … H6 are hooks.
    const bool parks_at_a_hook = parks && !is_callback_park_point(*park);
    if (verb == "put" || verb == "get") {
      need({Capability::segment_store});
      if (parks) need({Capability::hooks});
    } else if (verb == "ensure") {
      need_rows();
      if (parks) need({Capability::hooks});
    } else if (verb == "push" || verb == "command") {
      need_rows();
      need({Capability::push});
      if (verb == "command") need({Capability::commands});
      if (parks_at_a_hook) need({Capability::push_hooks});
      // A command's validators cross the protocol only for a driver that says so.
      const auto validators = step_validators(step.words);
      if (verb == "command" && validators && (validators->rows || validators->commit)) {
        need({Capability::command_callbacks});
      }
    } else if (verb == "resume") {
      // `resume park POINT` parks the call again: H0 … H6 of a push or command.
      if (parks && park->size() == 2 && (*park)[0] == 'H') need({Capability::push_hooks});
    } else {  // a step of a hand-rolled transaction
      need_rows();
      need({Capability::transactions});
    }
  }
  for (const auto& expectation : permutation.expectations) {
    const std::string kind = expectation.subject.substr(0, expectation.subject.find(' '));
    if (kind == "row") need_rows();
    if (kind == "changes" || kind == "commits" || kind == "seqs") {
      need_rows();
      need({Capability::push});
    }
    if (kind == "segment") need({Capability::segment_store});
  }
  return needed;
}

}  // namespace ssp::harness
