#include "harness/played_session.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "harness/granted_options.hpp"
#include "harness/push_fixtures.hpp"
#include "harness/harness_error.hpp"
#include "harness/require_found.hpp"

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

}  // namespace

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

// Where one step's answer goes; guarded by the session's mutex.
struct PlayedSession::Slot {
  std::optional<StepAnswer> answer;
};

PlayedSession::PlayedSession(const Setting& setting, const ScheduleSession& declaration)
    : setting_(setting), name_(declaration.name) {
  storage_ = require_opened(
      setting_.candidate.open_server_storage(setting_.location, storage::ServerStorageOptions{}),
      "server storage for session " + name_);
  storage_->ensure_schema(setting_.schema);
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
  return run_transaction_step(step.words);
}

storage::PushTransaction& PlayedSession::transaction() {
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
    transaction().put_push_result(kCommandClient, argument(), result);
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

void PlayedSession::on_hook(PushHookPoint point) {
  std::unique_lock lock(mutex_);
  if (park_at_ != point) return;
  park_at_.reset();
  parked_ = true;
  slot_->answer = StepAnswer{"parked at " + hook_point_word(point), "", false};
  changed_.notify_all();
  changed_.wait(lock, [&] { return !parked_ || released_; });
  if (parked_) {
    parked_ = false;
    throw HarnessError("the schedule ended while session " + name_ + "'s push was parked at " +
                       hook_point_word(point));
  }
}

void PlayedSession::start_push(const ScheduleStep& step, std::shared_ptr<Slot> slot) {
  // push COMMIT [client C] [partition P] [scopes A,B] (upsert|delete) ROW [base N] [title T] [project P] [park Hn]
  const auto& words = step.words;
  std::size_t verb = 2;
  while (verb < words.size() && words[verb] != "upsert" && words[verb] != "delete") ++verb;
  if (words.size() < 2 || verb + 1 >= words.size()) {
    return fail_now(slot, "schedule: \"" + step.text() + "\" names no upsert or delete");
  }
  const std::string& row_id = words[verb + 1];
  push::PushOperation operation{kTable, row_id,
                                words[verb] == "upsert" ? push::OperationKind::upsert
                                                        : push::OperationKind::remove,
                                std::nullopt, std::nullopt};
  if (const auto base = word_after(words, "base")) operation.base_version = number(*base);
  if (operation.op == push::OperationKind::upsert) {
    operation.payload = setting_.candidate.rows().encode(
        setting_.schema.find(kTable)->layout(),
        storage::Row{row_id, word_after(words, "project").value_or("p1"),
                     word_after(words, "title").value_or("-"), false});
  }
  const push::PushCommit commit{word_after(words, "client").value_or("client-" + name_), words[1],
                                {operation}};
  // refuse row | refuse commit: a validator of that kind refuses the push
  // with its own code test.refused (SSP2 §6.7, §6.8).
  const auto refuse = word_after(words, "refuse");
  if (refuse && *refuse != "row" && *refuse != "commit") {
    return fail_now(slot, "schedule: refuse names a validator: row or commit");
  }
  start_call(words, slot,
             [this, actor = actor_of(words), commit, refuse](push::PushOptions options) {
               if (refuse == "row") {
                 options.row_validators[kTable] = [](const push::RowValidation&) {
                   throw push::ValidationRejection("test.refused", "the schedule refuses it");
                 };
               } else if (refuse == "commit") {
                 options.commit_validator = [](const push::CommitValidation&) {
                   throw push::CommitValidationRejection(0, "test.refused",
                                                         "the schedule refuses it");
                 };
               }
               return setting_.candidate.push().push(*storage_, setting_.schema, actor, commit,
                                                     options);
             });
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
  start_call(words, slot,
             [this, actor = actor_of(words), request, declared,
              authorized](push::PushOptions options) {
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
  if (const auto park = word_after(words, "park")) {
    const auto point = hook_point_named(*park);
    if (!point) return fail_now(slot, "schedule: \"" + *park + "\" is not a hook point (H0 … H6)");
    if (!setting_.push_hooks) return fail_now(slot, "schedule: park needs the push_hooks grant");
    {
      std::lock_guard lock(mutex_);
      park_at_ = point;
    }
    install_push_hook(*setting_.push_hooks, options, [this](PushHookPoint reached) {
      on_hook(reached);
    });
  }
  threads_.emplace_back([this, call = std::move(call), options] {
    StepAnswer answer;
    try {
      answer = StepAnswer{push_answer_text(call(options)), "", false};
    } catch (const push::OperationError& refused) {
      answer = StepAnswer{"fails " + refused.code(), refused.what(), true};
    } catch (const push::PushRequestError& refused) {
      answer = StepAnswer{"fails " + refused.code(), refused.what(), true};
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
    slot->answer = StepAnswer{"fails", "schedule: session " + name_ + " has no parked push", true};
    step_running_ = false;
    return;
  }
  if (const auto park = word_after(words, "park")) park_at_ = hook_point_named(*park);
  parked_ = false;
  changed_.notify_all();
}

}  // namespace ssp::harness
