#include "harness/races/played_session.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>
#include <stdexcept>

#include "harness/errors/harness_error.hpp"
#include "harness/fixtures/push_fixtures.hpp"
#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/gates/granted_options.hpp"
#include "harness/util/require_found.hpp"
#include "wire/hook_points.hpp"

namespace ssp::harness {
namespace {

using push::PushHookPoint;
using storage::StoredRow;

constexpr const char* kTable = "tasks";             // every schedule's rows live in tasks
constexpr const char* kCommandClient = "command";   // a hand-rolled command's client id
constexpr std::int64_t kClock = 1'000;              // every commit's createdAtMs

// The schedule spelling of a hook point: H0 … H6 (push_pipeline.hpp).
std::optional<PushHookPoint> hook_point_named(const std::string& word) {
  if (word.size() != 2 || word[0] != 'H' || word[1] < '0' || word[1] > '6') return std::nullopt;
  return static_cast<PushHookPoint>(word[1] - '0');
}
std::string hook_point_word(PushHookPoint point) {
  return "H" + std::to_string(static_cast<int>(point));
}

std::int64_t number(const std::string& word) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error != std::errc{} || end != word.data() + word.size()) {
    throw HarnessError("schedule: \"" + word + "\" is not a number");
  }
  return value;
}

std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) items.push_back(item);
  return items;
}

StepAnswer ok() { return StepAnswer{"ok", "", false}; }

bool runs(const Schedule& schedule, const ScheduleSession& session, std::string_view verb) {
  return std::any_of(session.steps.begin(), session.steps.end(),
                     [&](const std::string& step) { return schedule.step(step).words[0] == verb; });
}

// Whether a step of `verb` can park at `point`, as schedules spell them: a
// push or a command at a callback every push candidate makes
// (is_callback_park_point) or at H0 … H6, the others at their wire names.
bool parks_at(const std::string& verb, const std::string& point) {
  if (verb == "put") return wire::put_hook_point_from_name(point).has_value();
  if (verb == "ensure") return wire::ensure_hook_point_from_name(point).has_value();
  if ((verb == "push" || verb == "command") && is_callback_park_point(point)) return true;
  return hook_point_named(point).has_value();
}

std::string schema_report_text(const storage::SchemaReport& report) {
  switch (report.action) {
    case storage::SchemaReport::Action::migrated:
      return "migrated rewritten " + std::to_string(report.rewritten_rows);
    case storage::SchemaReport::Action::verified:
      return "verified";
    case storage::SchemaReport::Action::memoized:
      return "memoized";
    case storage::SchemaReport::Action::unreported:
      return "unreported";
  }
  return "an action of no known kind";
}

}  // namespace

bool is_callback_park_point(std::string_view point) {
  return point == "validate_row" || point == "validate_commit";
}

std::optional<StepValidators> step_validators(const std::vector<std::string>& words) {
  const auto refuse = word_after(words, "refuse");
  if (refuse && *refuse != "row" && *refuse != "commit") return std::nullopt;
  const bool validate = std::find(words.begin(), words.end(), "validate") != words.end();
  const auto park = word_after(words, "park");
  return StepValidators{validate || refuse == "row" || park == "validate_row",
                        validate || refuse == "commit" || park == "validate_commit",
                        refuse == "row", refuse == "commit"};
}

std::string push_answer_text(const push::PushAnswer& answer) {
  switch (answer.status) {
    case push::PushAnswerStatus::applied:
    case push::PushAnswerStatus::cached: {
      const char* status = answer.status == push::PushAnswerStatus::applied ? "applied" : "cached";
      return std::string(status) + " seq " +
             (answer.commit_seq ? std::to_string(*answer.commit_seq) : "none");
    }
    case push::PushAnswerStatus::rejected:
      for (const auto& record : answer.results) {
        if (record.status == push::OperationStatus::conflict) {
          return "rejected conflict serverVersion " +
                 (record.server_version ? std::to_string(*record.server_version) : "none");
        }
        if (record.status == push::OperationStatus::error) return "rejected error " + record.code;
      }
      return "rejected without an error record";
  }
  return "an answer of no known status";
}

std::string row_text(Candidate& candidate, const storage::CompiledSchema& schema,
                     const std::optional<StoredRow>& row) {
  if (!row) return "absent";
  const auto title =
      task_title(candidate.rows().decode(schema.find(kTable)->layout(), row->payload));
  const auto scope = row->scopes.find("project_id");
  return "version " + std::to_string(row->server_version) + " title " + title.value_or("-") +
         " project " + (scope == row->scopes.end() ? "-" : scope->second);
}

NamedRow named_row(Candidate& candidate, const storage::CompiledSchema& schema,
                   const std::string& id, bool member, const std::vector<std::string>& words,
                   std::int64_t version) {
  NamedRow named{member ? "members" : kTable, storage::StoredRow{id, version, {}, {}}};
  storage::Row values;
  if (member) {
    const std::string org = word_after(words, "org").value_or("o1");
    values = {id, org, word_after(words, "email").value_or(id + "@example.com")};
    named.row.scopes = {{"org_id", org}};
  } else {
    const std::string project = word_after(words, "project").value_or("p1");
    values = {id, project, word_after(words, "title").value_or("-"), false};
    named.row.scopes = {{"project_id", project}};
  }
  named.row.payload = candidate.rows().encode(schema.find(named.table)->layout(), values);
  return named;
}

std::string segment_text(const std::optional<StoredSegment>& segment) {
  if (!segment) return "absent";
  std::vector<std::string> digests;
  for (const auto& publication : segment->record.publications) {
    digests.push_back(publication.metadata.scope_digest);
  }
  std::sort(digests.begin(), digests.end());
  std::string text = "digests";
  for (const auto& digest : digests) text += " " + digest;
  return text;
}

// Where one step's answer goes; guarded by the session's mutex.
struct PlayedSession::Slot {
  std::optional<StepAnswer> answer;
};

PlayedSession::PlayedSession(const Setting& setting, const Schedule& schedule,
                             const ScheduleSession& declaration)
    : setting_(setting), name_(declaration.name) {
  // Hooks go in whenever the test holds the grant: it asks for one only when
  // the schedule parks somewhere.
  if (runs(schedule, declaration, "put") || runs(schedule, declaration, "get")) {
    SegmentStoreOptions options;
    if (setting_.hooks) {
      install_put_hook(*setting_.hooks, options, [this](PutHookPoint point) {
        on_hook(std::string(wire::put_hook_point_name(point)));
      });
    }
    store_ = require_opened(setting_.candidate.open_segment_store(setting_.location, options),
                            "segment store for session " + name_);
    return;
  }
  const bool starts_a_server = runs(schedule, declaration, "ensure");
  storage::ServerStorageOptions options;
  if (starts_a_server && setting_.hooks) {
    install_ensure_hook(*setting_.hooks, options, [this](storage::EnsureHookPoint point) {
      on_hook(std::string(storage::ensure_hook_point_name(point)));
    });
  }
  storage_ = require_opened(setting_.candidate.open_server_storage(setting_.location, options),
                            "server storage for session " + name_);
  if (!starts_a_server) storage_->ensure_schema(setting_.schema);
}

PlayedSession::~PlayedSession() {
  release();
  for (auto& thread : threads_) thread.join();
  tx_.reset();
}

void PlayedSession::start(const ScheduleStep& step) {
  auto slot = std::make_shared<Slot>();
  {
    std::lock_guard lock(mutex_);
    slot_ = slot;
    step_running_ = true;
  }
  const auto& words = step.words;
  if (words[0] == "push") return start_push(step, slot);
  if (words[0] == "command") return start_command(step, slot);
  if (words[0] == "ensure") return start_ensure(step, slot);
  if (words[0] == "put") return start_put(step, slot);
  if (words[0] == "resume") return resume(words, slot);
  threads_.emplace_back([this, step, slot] {
    StepAnswer answer;
    try {
      answer = run(step);
    } catch (const std::exception& error) {
      answer = StepAnswer{"fails", error.what(), true};
    }
    std::lock_guard lock(mutex_);
    slot->answer = std::move(answer);
    step_running_ = false;
    changed_.notify_all();
  });
}

std::optional<StepAnswer> PlayedSession::answer() {
  std::lock_guard lock(mutex_);
  return slot_ ? slot_->answer : std::nullopt;
}

std::optional<StepAnswer> PlayedSession::await(std::chrono::seconds watchdog) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, watchdog, [&] { return slot_ && slot_->answer.has_value(); });
  return slot_ ? slot_->answer : std::nullopt;
}

void PlayedSession::release() {
  std::lock_guard lock(mutex_);
  released_ = true;
  changed_.notify_all();  // a parked push wakes up and fails
  if (!step_running_ && tx_) tx_->rollback();
}

StepAnswer PlayedSession::run(const ScheduleStep& step) {
  if (ended_) return StepAnswer{"skipped", "the recheck found the stored result", false};
  if (step.words[0] == "get") {
    if (!store_ || step.words.size() < 2) {
      throw HarnessError("schedule: get needs a SEGMENT-ID, in a session of segments");
    }
    return StepAnswer{segment_text(store_->get(step.words[1])), "", false};
  }
  return run_transaction_step(step.words);
}

storage::PushTransaction& PlayedSession::transaction() {
  if (!storage_) {
    throw HarnessError("schedule: session " + name_ + " is one of segments: it has no storage");
  }
  if (!tx_) throw HarnessError("schedule: session " + name_ + " has no transaction (begin first)");
  return *tx_;
}

StepAnswer PlayedSession::run_transaction_step(const std::vector<std::string>& words) {
  const std::string& verb = words[0];
  const auto argument = [&]() -> const std::string& {
    if (words.size() < 2) throw HarnessError("schedule: \"" + verb + "\" needs an argument");
    return words[1];
  };
  if (verb == "begin") {
    // begin [PARTITION] [locked]: `locked` takes the partition lock at once,
    // as trusted code must (on SQLite the wait is at begin, on PostgreSQL at
    // the lock: one step either way).
    const bool locked = words.back() == "locked";
    const bool partition_named = words.size() > (locked ? 2u : 1u);
    tx_ = storage_->begin(partition_named ? words[1] : "acme");
    if (!tx_) throw std::runtime_error("the candidate's begin returned no transaction");
    if (locked) tx_->lock_partition_for_push();
    return ok();
  }
  if (verb == "lock") {
    transaction().lock_partition_for_push();
    return ok();
  }
  if (verb == "read") return read(argument());
  if (verb == "write") return write(words);
  if (verb == "append") return append(argument());
  if (verb == "put-result") {
    push::StoredPushResult result;
    result.status = push::PushStatus::applied;
    result.commit_seq = appended_seq_;
    result.recorded_at_ms = kClock;
    result.cache_identity = "command-" + name_;
    result.results = {push::OperationResult{}};
    transaction().put_push_result(word_after(words, "client").value_or(kCommandClient),
                                  argument(), result);
    return ok();
  }
  if (verb == "recheck") return recheck(argument());
  if (verb == "commit") {
    transaction().commit();
    return ok();
  }
  if (verb == "rollback") {
    transaction().rollback();
    return ok();
  }
  throw HarnessError("schedule: unknown step \"" + verb + "\"");
}

StepAnswer PlayedSession::read(const std::string& row_id) {
  const auto row = transaction().get_row(kTable, row_id);
  if (row) {
    read_rows_[row_id] = *row;
  } else {
    read_rows_.erase(row_id);
  }
  return StepAnswer{row_text(setting_.candidate, setting_.schema, row), "", false};
}

StepAnswer PlayedSession::write(const std::vector<std::string>& words) {
  if (words.size() < 2) throw HarnessError("schedule: write needs a row");
  const std::string& row_id = words[1];
  const auto seen = read_rows_.find(row_id);
  std::string project = word_after(words, "project").value_or("p1");
  if (!word_after(words, "project") && seen != read_rows_.end()) {
    project = seen->second.scopes["project_id"];
  }
  const std::int64_t version = seen == read_rows_.end() ? 1 : seen->second.server_version + 1;
  const auto title = word_after(words, "title").value_or("-");
  const storage::Bytes payload = setting_.candidate.rows().encode(
      setting_.schema.find(kTable)->layout(), storage::Row{row_id, project, title, false});
  const StoredRow row{row_id, version, {{"project_id", project}}, payload};
  transaction().upsert_row(kTable, row, static_cast<std::int64_t>(written_.size()));
  written_.push_back(
      storage::Change{kTable, row_id, storage::ChangeOp::upsert, version, row.scopes, payload});
  return ok();
}

StepAnswer PlayedSession::append(const std::string& commit_id) {
  appended_seq_ = transaction().append_commit(
      storage::CommitEntry{kCommandClient, commit_id, "actor-" + name_, kClock, written_});
  written_.clear();
  return StepAnswer{"seq " + std::to_string(appended_seq_), "", false};
}

StepAnswer PlayedSession::recheck(const std::string& commit_id) {
  const auto stored = transaction().get_push_result(kCommandClient, commit_id);
  if (!stored) return StepAnswer{"none", "", false};
  transaction().rollback();
  ended_ = true;
  if (stored->status == push::PushStatus::applied) {
    return StepAnswer{"found applied seq " + std::to_string(stored->commit_seq.value_or(0)), "",
                      false};
  }
  return StepAnswer{"found rejected", "", false};
}

void PlayedSession::on_hook(const std::string& point) {
  std::unique_lock lock(mutex_);
  if (park_at_ != point) return;
  park_at_.reset();
  parked_ = true;
  slot_->answer = StepAnswer{"parked at " + point, "", false};
  changed_.notify_all();
  changed_.wait(lock, [&] { return !parked_ || released_; });
  if (parked_) {
    // The play ended (its problems are reported already) with this call
    // still parked: the call is abandoned. Not a HarnessError: a play that a
    // wrong candidate failed ends so, and the failure is the candidate's.
    parked_ = false;
    throw std::runtime_error("the schedule ended while session " + name_ +
                             "'s call was parked at " + point);
  }
}

void PlayedSession::start_push(const ScheduleStep& step, std::shared_ptr<Slot> slot) {
  // push COMMIT … (upsert|delete|member) ROW …: the words before the
  // operation are the push's, those after it the row's.
  const auto& words = step.words;
  std::size_t verb = 2;
  while (verb < words.size() && words[verb] != "upsert" && words[verb] != "delete" &&
         words[verb] != "member") {
    ++verb;
  }
  if (words.size() < 2 || verb + 1 >= words.size()) {
    return fail_now(slot, "schedule: \"" + step.text() + "\" names no upsert, delete or member");
  }
  const bool removes = words[verb] == "delete";
  const NamedRow named = named_row(setting_.candidate, setting_.schema, words[verb + 1],
                                   words[verb] == "member", words, 0);
  push::PushOperation operation{named.table, named.row.row_id,
                                removes ? push::OperationKind::remove : push::OperationKind::upsert,
                                std::nullopt, std::nullopt};
  if (const auto base = word_after(words, "base")) operation.base_version = number(*base);
  if (!removes) operation.payload = named.row.payload;
  const push::PushCommit commit{word_after(words, "client").value_or("client-" + name_), words[1],
                                {operation}};
  const auto validators = step_validators(words);
  if (!validators) return fail_now(slot, "schedule: refuse names a validator: row or commit");
  start_call(words, slot,
             [this, actor = actor_of(words), commit, validators = *validators,
              table = named.table](push::PushOptions options) {
               install_validators(validators, table, options);
               return setting_.candidate.push().push(*storage_, setting_.schema, actor, commit,
                                                     options);
             });
}

// A validator parks inside the call (on_hook) before it accepts or refuses:
// inside the call's transaction, under the partition lock (§6.8), with the
// operations staged for validate_commit.
void PlayedSession::install_validators(const StepValidators& validators, const std::string& table,
                                       push::PushOptions& options) {
  ValidationCounts& counts = setting_.validations;
  if (validators.rows) {
    options.row_validators[table] = [this, &counts, refuses = validators.row_refuses](const auto&) {
      ++counts.row;
      on_hook("validate_row");
      if (refuses) throw push::ValidationRejection("test.refused", "the schedule refuses it");
    };
  }
  if (validators.commit) {
    options.commit_validator = [this, &counts,
                                refuses = validators.commit_refuses](const auto&) {
      ++counts.commit;
      on_hook("validate_commit");
      if (refuses) {
        throw push::CommitValidationRejection(0, "test.refused", "the schedule refuses it");
      }
    };
  }
}

void PlayedSession::start_command(const ScheduleStep& step, std::shared_ptr<Slot> slot) {
  // command OPERATION REQUEST KIND [row R] [project P] [client C] [unauthorized] [park Hn]
  const auto& words = step.words;
  if (words.size() < 4) {
    return fail_now(slot, "schedule: \"" + step.text() + "\" needs OPERATION REQUEST KIND");
  }
  std::optional<wire::DeclaredCommand> declared;
  if (words[3] != "unregistered") {
    try {
      declared = wire::declared_command_from_json(
          wire::Json{{"kind", words[3]},
                     {"rowId", word_after(words, "row").value_or("c1")},
                     {"project", word_after(words, "project").value_or("p1")}},
          "schedule");
    } catch (const std::exception& error) {
      return fail_now(slot, "schedule: " + std::string(error.what()));
    }
  }
  const push::CommandRequest request{words[1], word_after(words, "client").value_or("app"), words[2]};
  const bool authorized =
      std::find(words.begin(), words.end(), "unauthorized") == words.end();
  const auto validators = step_validators(words);
  if (!validators) return fail_now(slot, "schedule: refuse names a validator: row or commit");
  // The declared commands write tasks: their row validator is that table's.
  start_call(words, slot,
             [this, actor = actor_of(words), request, declared, authorized,
              validators = *validators](push::PushOptions options) {
               install_validators(validators, "tasks", options);
               return setting_.candidate.commands().command(*storage_, setting_.schema, actor,
                                                            request, declared, authorized, options);
             });
}

// [as ACTOR] [partition P] [scopes A,B]: actor user-<session> of acme, every scope.
push::PushActor PlayedSession::actor_of(const std::vector<std::string>& words) const {
  push::PushActor actor{word_after(words, "partition").value_or("acme"),
                        word_after(words, "as").value_or("user-" + name_), all_scopes()};
  if (const auto scopes = word_after(words, "scopes")) {
    actor.allowed_scopes = ScopeMap{{"project_id", comma_list(*scopes)}};
  }
  return actor;
}

void PlayedSession::fail_now(const std::shared_ptr<Slot>& slot, const std::string& problem) {
  std::lock_guard lock(mutex_);
  slot->answer = StepAnswer{"fails", problem, true};
  step_running_ = false;
  changed_.notify_all();
}

void PlayedSession::start_call(const std::vector<std::string>& words,
                               const std::shared_ptr<Slot>& slot, Call call) {
  push::PushOptions options;
  options.clock = [] { return kClock; };
  const int call_number = ++calls_;
  options.new_cache_identity = [this, call_number] {
    return "identity-" + name_ + "-" + std::to_string(call_number);
  };
  // Hook points go in whenever the test holds the grant: it asks for one only
  // when a step of the schedule parks at H0 … H6 (a later `resume park H4`
  // too). A park at a callback needs none.
  const auto park = word_after(words, "park");
  if (park && hook_point_named(*park) && !setting_.push_hooks) {
    return fail_now(slot, "schedule: park " + *park + " needs the push_hooks grant");
  }
  if (setting_.push_hooks) {
    install_push_hook(*setting_.push_hooks, options,
                      [this](PushHookPoint reached) { on_hook(hook_point_word(reached)); });
  }
  start_parkable(words, slot, [call = std::move(call), options] {
    try {
      return StepAnswer{push_answer_text(call(options)), "", false};
    } catch (const push::OperationError& refused) {
      return StepAnswer{"fails " + refused.code(), refused.what(), true};
    } catch (const push::PushRequestError& refused) {
      return StepAnswer{"fails " + refused.code(), refused.what(), true};
    }
  });
}

void PlayedSession::start_ensure(const ScheduleStep& step, std::shared_ptr<Slot> slot) {
  // ensure [next] [park POINT]
  const bool next = std::find(step.words.begin(), step.words.end(), "next") != step.words.end();
  start_parkable(step.words, slot, [this, next] {
    return StepAnswer{
        schema_report_text(storage_->ensure_schema(next ? setting_.next_schema : setting_.schema)),
        "", false};
  });
}

void PlayedSession::start_put(const ScheduleStep& step, std::shared_ptr<Slot> slot) {
  // put DIGEST PAYLOAD [park POINT]: each put of the session a millisecond later.
  const auto& words = step.words;
  if (words.size() < 3) return fail_now(slot, "schedule: put needs DIGEST PAYLOAD");
  const std::int64_t now = kNow + ++calls_;
  start_parkable(
      words, slot,
      [this, metadata = with_digest(base_metadata(), words[1]), bytes = payload(words[2]), now] {
        store_->put(metadata, bytes, now);
        return ok();
      });
}

void PlayedSession::start_parkable(const std::vector<std::string>& words,
                                   const std::shared_ptr<Slot>& slot,
                                   std::function<StepAnswer()> run) {
  if (const auto park = word_after(words, "park")) {
    if (!parks_at(words[0], *park)) {
      return fail_now(slot, "schedule: a " + words[0] + " cannot park at \"" + *park + "\"");
    }
    // A push or command has its hook installed by now (start_call).
    if ((words[0] == "put" || words[0] == "ensure") && !setting_.hooks) {
      return fail_now(slot, "schedule: park needs the hooks grant");
    }
    std::lock_guard lock(mutex_);
    park_at_ = park;
  }
  call_verb_ = words[0];
  threads_.emplace_back([this, run = std::move(run)] {
    StepAnswer answer;
    try {
      answer = run();
    } catch (const std::exception& error) {
      answer = StepAnswer{"fails", error.what(), true};
    }
    std::lock_guard lock(mutex_);
    park_at_.reset();
    slot_->answer = std::move(answer);  // the call's step, or the last resume's
    step_running_ = false;
    changed_.notify_all();
  });
}

void PlayedSession::resume(const std::vector<std::string>& words, std::shared_ptr<Slot> slot) {
  std::lock_guard lock(mutex_);
  if (!parked_) {
    slot->answer =
        StepAnswer{"fails", "schedule: session " + name_ + " has no parked call", true, true};
    step_running_ = false;
    return;
  }
  const auto park = word_after(words, "park");
  if (park && !parks_at(call_verb_, *park)) {
    slot->answer = StepAnswer{
        "fails", "schedule: a " + call_verb_ + " cannot park at \"" + *park + "\"", true};
    step_running_ = false;
    return;
  }
  park_at_ = park;
  parked_ = false;
  changed_.notify_all();
}

}  // namespace ssp::harness
