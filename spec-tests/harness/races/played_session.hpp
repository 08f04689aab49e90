// One session of a schedule being played (schedule.hpp): a server storage or
// a segment store of its own, which the candidate opened (its own connection,
// or its own driver process), its steps each run on a thread of their own so
// that one can wait for a lock while the others go on, and what a hand-rolled
// command keeps between its steps (the transaction, the rows it read, the
// changes it wrote).
//
// What a session opens follows from its steps: a session that puts or gets
// opens a segment store; one that runs `ensure` opens a server storage and leaves the
// schema to that step (a server starting); any other opens a server storage
// and ensures the schema first.
//
// The steps a session understands (docs/races.md lists them for readers):
//   begin [PARTITION] [locked]     storage.begin, no lock (acme unless named);
//                                  `locked`: then lock_partition_for_push, as one step
//   lock                           lock_partition_for_push
//   read ROW                       tx get_row of tasks
//   write ROW title T [project P]  tx upsert_row at the version read plus one (1 when absent)
//   append COMMIT                  tx append_commit of what was written, client "command"
//   put-result COMMIT [client C]   tx put_push_result: applied at the appended seq, client
//                                  "command" unless named; uncommitted, it holds the
//                                  result's key against a push's insert of it
//   recheck COMMIT                 tx get_push_result; a stored result rolls back and
//                                  ends the session (its later steps answer "skipped")
//   commit | rollback
//   push COMMIT [client C] [partition P] [as ACTOR] [scopes A,B] OPERATION [validate]
//        [refuse row|commit] [park Hn | park validate_row | park validate_commit]
//       OPERATION: upsert ROW [base N] [title T] [project P] | delete ROW [base N]
//                | member ROW [email E] [org O] (an upsert of a members row)
//       validate: validators that accept; refuse: one that refuses (ValidationCounts);
//       park validate_row|validate_commit: inside that validator, which is then
//       installed (a callback every push candidate makes, under the lock); a
//       row validator is installed for the operation's table
//   command OPERATION REQUEST KIND [row R] [project P] [client C] [as ACTOR] [unauthorized]
//        [validate] [refuse row|commit] [park Hn | park validate_row | park validate_commit]
//       a registered command of the declared vocabulary (wire/declared_command.hpp);
//       KIND `unregistered` registers none; its commit passes the validators as a
//       push's does (REMOTE §3), the row validator being that of tasks
//   ensure [next] [park POINT]     ensure_schema of the push schema (`next`: its
//                                  next version, tasks with one more column);
//                                  POINT before_lock | after_lock | before_commit
//   put DIGEST PAYLOAD [park POINT]
//                                  a segment put of the bytes PAYLOAD under scope
//                                  digest DIGEST; POINT before_begin | after_read |
//                                  before_commit
//   get SEGMENT-ID                 a segment store get; answers as `segment` is observed
//   resume [park POINT]            lets the parked push, command, ensure or put go on
//                                  (to the next park, or its end)
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "harness/candidate/candidate.hpp"
#include "harness/gates/capability_gate.hpp"
#include "harness/races/schedule.hpp"
#include "ssp/push/push_types.hpp"
#include "ssp/storage/schema.hpp"

namespace ssp::harness {

// What one step answered. `text` is what a schedule expects and the docs show,
// the same on every run; `detail` adds what may vary (an error's message).
// `from_runner`: the runner answered it itself, the candidate never saw the
// step (a `resume` of a session with no parked call).
struct StepAnswer {
  std::string text;
  std::string detail;
  bool failed = false;
  bool from_runner = false;
};

// Renders a push's answer as schedules expect it: "applied seq 1",
// "cached seq 1", "rejected conflict serverVersion 4", "rejected error sync.forbidden".
std::string push_answer_text(const push::PushAnswer& answer);

// Renders a tasks row as schedules expect it: "version 3 title X3 project p1",
// or "absent"; the payload is decoded by the candidate's own row codec.
std::string row_text(Candidate& candidate, const storage::CompiledSchema& schema,
                     const std::optional<storage::StoredRow>& row);

// A row a schedule names, encoded by the candidate's row codec for `schema`
// (push_schema()) at `version`: a tasks row ID with `title T` and `project P`
// from `words` (defaults "-" and p1), or, with `member`, a members row ID
// with `email E` and `org O` (defaults ID@example.com and o1).
struct NamedRow {
  std::string table;
  storage::StoredRow row;
};
NamedRow named_row(Candidate& candidate, const storage::CompiledSchema& schema,
                   const std::string& id, bool member, const std::vector<std::string>& words,
                   std::int64_t version);

// Renders a stored segment as schedules expect it: "digests digest-a
// digest-b", the scope digest of each publication, sorted (SPEC orders
// publications nowhere), or "absent".
std::string segment_text(const std::optional<StoredSegment>& segment);

// Whether `point` is a park point at a callback every push candidate makes
// inside its transaction, under the partition lock: `validate_row` (the row
// validator of tasks) or `validate_commit` (the whole-commit validator). A
// park at one needs no hook points (Capability::push_hooks).
bool is_callback_park_point(std::string_view point);

// The validators a push or command step installs, by its words: `validate`
// installs both, accepting; `refuse row|commit` installs that one, refusing
// with test.refused (SSP2 §6.7, §6.8); `park validate_row|validate_commit`
// installs that one, for the call to park in. Empty when `refuse` names
// neither.
struct StepValidators {
  bool rows = false;    // a row validator of the written table
  bool commit = false;  // a whole-commit validator
  bool row_refuses = false;
  bool commit_refuses = false;
};
std::optional<StepValidators> step_validators(const std::vector<std::string>& words);

// How often the validators of the pushes of one play were called, over all
// its sessions: a delivery answered from a stored result calls none.
struct ValidationCounts {
  std::atomic<int> row{0};     // row validators (of the pushed operation's table)
  std::atomic<int> commit{0};  // whole-commit validators
};

class PlayedSession {
 public:
  struct Setting {
    Candidate& candidate;
    DatabaseLocation location;
    const storage::CompiledSchema& schema;       // push_schema(), compiled by the candidate
    const storage::CompiledSchema& next_schema;  // its next version, for `ensure next`
    std::optional<CapabilityGrant> push_hooks;   // needed to park a push or command
    std::optional<CapabilityGrant> hooks;        // needed to park an ensure or put
    ValidationCounts& validations;               // shared by the sessions of one play
  };

  // Opens the session's storage or store (above). Throws what the candidate
  // throws; fails the test when it opens nothing.
  PlayedSession(const Setting& setting, const Schedule& schedule,
                const ScheduleSession& declaration);
  // release(), then waits for the session's threads.
  ~PlayedSession();
  PlayedSession(const PlayedSession&) = delete;
  PlayedSession& operator=(const PlayedSession&) = delete;

  const std::string& name() const { return name_; }

  // Starts `step` on a thread of its own. The previous step of the session
  // has answered (the runner waits for it first).
  void start(const ScheduleStep& step);
  // The answer of the step started last, once it came.
  std::optional<StepAnswer> answer();
  // Waits for that answer, at most `watchdog`.
  std::optional<StepAnswer> await(std::chrono::seconds watchdog);

  // Lets go of everything, so that no thread of any session stays blocked
  // behind it: a parked push fails at its hook point, and the open
  // transaction is rolled back unless a step of the session still runs in it.
  void release();

 private:
  struct Slot;
  StepAnswer run(const ScheduleStep& step);
  StepAnswer run_transaction_step(const std::vector<std::string>& words);
  StepAnswer read(const std::string& row_id);
  StepAnswer write(const std::vector<std::string>& words);
  StepAnswer append(const std::string& commit_id);
  StepAnswer recheck(const std::string& commit_id);
  using Call = std::function<push::PushAnswer(push::PushOptions)>;
  // Installs `validators` in `options`, the row validator on `table`; each
  // parks where the step does and counts its calls in ValidationCounts.
  void install_validators(const StepValidators& validators, const std::string& table,
                          push::PushOptions& options);
  void start_push(const ScheduleStep& step, std::shared_ptr<Slot> slot);
  void start_command(const ScheduleStep& step, std::shared_ptr<Slot> slot);
  void start_ensure(const ScheduleStep& step, std::shared_ptr<Slot> slot);
  void start_put(const ScheduleStep& step, std::shared_ptr<Slot> slot);
  // Runs `call` on a thread of its own with the step's options (a fixed
  // clock, an identity per call, and its park), answering into the slot.
  void start_call(const std::vector<std::string>& words, const std::shared_ptr<Slot>& slot,
                  Call call);
  // Runs `run` on a thread of its own, to park at the step's `park POINT`
  // when a hook reaches it; the answer goes to the slot of the session's
  // latest step (the step's own, or the last resume's).
  void start_parkable(const std::vector<std::string>& words, const std::shared_ptr<Slot>& slot,
                      std::function<StepAnswer()> run);
  void fail_now(const std::shared_ptr<Slot>& slot, const std::string& problem);
  push::PushActor actor_of(const std::vector<std::string>& words) const;
  void resume(const std::vector<std::string>& words, std::shared_ptr<Slot> slot);
  storage::PushTransaction& transaction();
  // Parks the calling thread when `point` is where the session's call is to
  // park, until resume() or release(). Points are named as schedules spell them.
  void on_hook(const std::string& point);

  Setting setting_;
  std::string name_;
  std::unique_ptr<storage::ServerStorage> storage_;  // all but a session of segments
  std::unique_ptr<SegmentStore> store_;              // a session that puts or gets

  // A hand-rolled command's state; used by one step at a time.
  std::unique_ptr<storage::PushTransaction> tx_;
  std::map<std::string, storage::StoredRow> read_rows_;  // what `read` saw (absent: not here)
  std::vector<storage::Change> written_;                  // since the last append
  std::int64_t appended_seq_ = 0;
  bool ended_ = false;  // a recheck found the stored result

  std::mutex mutex_;
  std::condition_variable changed_;
  std::shared_ptr<Slot> slot_;  // where the running step's answer goes
  bool step_running_ = false;
  // Where the call of this session is to park, while it heads for a park.
  std::optional<std::string> park_at_;
  std::string call_verb_;  // the step that started the call: push, command, ensure or put
  bool parked_ = false;
  bool released_ = false;
  int calls_ = 0;

  std::vector<std::thread> threads_;
};

}  // namespace ssp::harness
