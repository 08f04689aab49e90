// PUSH-P1, P2, P3, P5, P6 (design notes push.md §6.3): 2–16 sessions, each a
// storage of its own opened by the candidate, released together by a latch,
// each playing a few deliveries: pushes (last-writer-wins and compare-and-set,
// some refused by a row validator) under keys drawn from a small pool, so
// that duplicates of identical bytes meet, and, where the candidate has
// `commands`, registered increments of one counter under request ids drawn
// from a small pool. Nothing but `push` (and the raw transactions the
// observer reads through) is needed: a hookless candidate without commands
// runs P1 on pushes alone. After quiescence: seqs
// dense, one commit and one outcome per key, every delivery answered its
// key's stored outcome, every row's versions a chain, no increment lost.
//
// PUSH-P4 plays the same workload and replays, one at a time on a fresh
// database, the deliveries that decided their keys, in lock order: every key
// must get the same stored outcome, and the same commits and rows must
// remain. With push hooks the lock order is observed, from a hook at H3 (the
// locked recheck found nothing: the delivery decides its key). Without, it
// is the order the run's own record implies, which any push candidate
// leaves: an applied delivery at its seq, a conflict right after the commit
// that gave its row the version it saw, a validator's refusal (which no
// state decides) first.
//
// PUSH-P-NEG-REF, the negative control: hand-rolled increments that begin()
// without the partition lock join the same workload. On PostgreSQL the search
// must find a case the invariants reject (the test asserts that it does); on
// SQLite, whose begin takes the file's write lock, the invariants still hold.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <latch>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <utility>

#include "harness/fixtures/push_fixtures.hpp"
#include "harness/fixtures/push_storage_fixtures.hpp"
#include "harness/gates/backend_gate.hpp"
#include "harness/gates/granted_options.hpp"
#include "harness/util/eventually.hpp"
#include "property_run.hpp"

namespace ssp::properties {
namespace {

using harness::Backend;
using push::PushAnswerStatus;

constexpr const char* kPartition = "acme";
constexpr const char* kCounter = "c1";
constexpr int kKeys = 8;        // push keys k0 … k7
constexpr int kRequests = 4;    // command requests req0 … req3

enum class Kind { push, increment, unlocked_increment };

struct Delivery {
  Kind kind = Kind::push;
  int key = 0;  // push: its key; increment: its request; unlocked: unused
};

using Workload = std::vector<std::vector<Delivery>>;  // per session, in order

// How RapidCheck prints a delivery in a counterexample: "push k3",
// "increment req1", "unlocked".
void showValue(const Delivery& delivery, std::ostream& out) {
  switch (delivery.kind) {
    case Kind::push: out << "push k" << delivery.key; return;
    case Kind::increment: out << "increment req" << delivery.key; return;
    case Kind::unlocked_increment: out << "unlocked"; return;
  }
}

// `increments`: registered increments among the deliveries (a candidate with
// `commands`); without them the workload is pushes alone, and the push
// invariants hold the same.
rc::Gen<Workload> workload(bool unlocked, bool increments) {
  return rc::gen::exec([unlocked, increments] {
    const int sessions = *rc::gen::inRange(2, 17);
    Workload plan(static_cast<std::size_t>(sessions));
    for (auto& deliveries : plan) {
      const int count = *rc::gen::inRange(1, 5);
      for (int i = 0; i < count; ++i) {
        Delivery delivery;
        delivery.kind = *rc::gen::weightedElement<Kind>(
            {{3, Kind::push},
             {increments ? 2u : 0u, Kind::increment},
             {unlocked ? 2u : 0u, Kind::unlocked_increment}});
        delivery.key = *rc::gen::inRange(0, delivery.kind == Kind::push ? kKeys : kRequests);
        deliveries.push_back(delivery);
      }
    }
    return plan;
  });
}

// Everything of a push follows from its key, so every delivery of a key
// carries identical bytes: row r1 … r4; every third a compare-and-set from
// version 1; every fifth titled "bad", which the row validator refuses.
struct PushOfKey {
  std::string commit_id;
  std::string row_id;
  std::optional<std::int64_t> base_version;
  std::string title;
};
PushOfKey push_of_key(int key) {
  return PushOfKey{"k" + std::to_string(key), "r" + std::to_string(key % 4 + 1),
                   key % 3 == 2 ? std::optional<std::int64_t>(1) : std::nullopt,
                   key % 5 == 4 ? "bad" : "t" + std::to_string(key)};
}

// What one delivery answered: its key and the answer, or what it threw.
struct Answered {
  std::string client_id;
  std::string commit_id;
  std::optional<push::PushAnswer> answer;
  std::string threw;
};

// One case: the candidate's storages on a fresh database, the deliveries
// played together, then the invariants checked through another storage.
class Case {
 public:
  // With `push_hooks`, every delivery that decides its key is logged in lock
  // order (observed_lock_order).
  Case(Backend backend, const Workload& plan,
       std::optional<harness::CapabilityGrant> push_hooks = std::nullopt)
      : Case(backend, plan, push_hooks, plan.size()) {}

  void play() {
    std::latch start(static_cast<std::ptrdiff_t>(plan_.size()));
    unlocked_total_ = 0;
    for (const auto& deliveries : plan_) {
      for (const auto& delivery : deliveries) {
        if (delivery.kind == Kind::unlocked_increment) ++unlocked_total_;
      }
    }
    std::vector<std::thread> threads;
    for (std::size_t s = 0; s < plan_.size(); ++s) {
      threads.emplace_back([&, s] {
        start.arrive_and_wait();
        for (std::size_t d = 0; d < plan_[s].size(); ++d) deliver(s, d);
      });
    }
    for (auto& thread : threads) thread.join();
  }

  // The deciding deliveries in the order H3 saw them (a case played with
  // push_hooks).
  std::vector<Delivery> observed_lock_order() const {
    std::vector<Delivery> order;
    for (const auto& [session, index] : lock_order_) order.push_back(plan_[session][index]);
    return order;
  }

  // The deciding deliveries in the order the stored outcomes and the commit
  // log imply (a case played without hooks): an applied delivery at its seq;
  // a conflict after the commit that made the version it saw (first when it
  // saw none); any other rejection first. Rejections change no state, so
  // their order among themselves does not matter.
  std::vector<Delivery> order_the_log_implies() {
    auto observer = open();
    const auto commits = observer->read_commit_window(kPartition, 0, 1'000);
    // The seq of the commit that took `row_id` to `version`; 0 for none.
    const auto seq_that_made = [&](const std::string& row_id, std::int64_t version) {
      for (const auto& commit : commits) {
        for (const auto& change : commit.entry.changes) {
          if (change.row_id == row_id && change.row_version == version) return commit.commit_seq;
        }
      }
      return std::int64_t{0};
    };
    std::map<std::pair<std::string, std::string>, Delivery> of_key;
    for (const auto& deliveries : plan_) {
      for (const auto& delivery : deliveries) {
        if (delivery.kind != Kind::unlocked_increment) of_key.emplace(key_of(delivery), delivery);
      }
    }
    std::vector<std::pair<std::pair<std::int64_t, int>, Delivery>> slotted;  // ((seq, 0|1), …)
    for (const auto& [key, delivery] : of_key) {
      const auto outcome = observer->get_push_result(kPartition, key.first, key.second);
      if (!outcome) continue;  // a refused command request stores nothing
      if (outcome->status == push::PushStatus::applied) {
        slotted.push_back({{outcome->commit_seq.value_or(0), 0}, delivery});
        continue;
      }
      const bool conflict = delivery.kind == Kind::push && outcome->results.size() == 1 &&
                            outcome->results[0].status == push::OperationStatus::conflict;
      const std::int64_t after =
          conflict ? seq_that_made(push_of_key(delivery.key).row_id,
                                   outcome->results[0].server_version.value_or(0))
                   : 0;
      slotted.push_back({{after, 1}, delivery});
    }
    std::stable_sort(slotted.begin(), slotted.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Delivery> order;
    for (const auto& [slot, delivery] : slotted) order.push_back(delivery);
    return order;
  }

  // P4: `order`, replayed one delivery at a time on a fresh database, gives
  // every key the stored outcome it has here (status, seq, per-operation
  // results) and leaves the same commits and rows. Only for a case played
  // without unlocked increments.
  std::string replay_violations(const std::vector<Delivery>& order) {
    auto observer = open();
    Case replay(backend_, plan_, std::nullopt, 1);
    for (const Delivery& delivery : order) {
      replay.play_delivery(*replay.storages_.front(), delivery, {});
    }
    auto replayed = replay.open();
    std::string report;
    const auto wrong = [&](const std::string& line) { report += "P4: " + line + "\n"; };
    for (const auto& [client, commit_id] : delivered_keys()) {
      const auto here = observer->get_push_result(kPartition, client, commit_id);
      const auto there = replayed->get_push_result(kPartition, client, commit_id);
      if (here.has_value() != there.has_value() ||
          (here && (here->status != there->status || here->commit_seq != there->commit_seq ||
                    here->results != there->results))) {
        wrong("the replay stored another outcome for " + commit_id);
      }
    }
    const auto commits = observer->read_commit_window(kPartition, 0, 1'000);
    const auto replayed_commits = replayed->read_commit_window(kPartition, 0, 1'000);
    if (commits.size() != replayed_commits.size()) {
      wrong(std::to_string(commits.size()) + " commits, " +
            std::to_string(replayed_commits.size()) + " in the replay");
    }
    for (std::size_t i = 0; i < std::min(commits.size(), replayed_commits.size()); ++i) {
      const auto& a = commits[i].entry;
      const auto& b = replayed_commits[i].entry;
      if (a.client_id != b.client_id || a.client_commit_id != b.client_commit_id ||
          a.changes != b.changes) {
        wrong("seq " + std::to_string(commits[i].commit_seq) + " is " + a.client_commit_id +
              " here and " + b.client_commit_id + " in the replay, or their changes differ");
      }
    }
    for (const std::string row_id : {"r1", "r2", "r3", "r4", kCounter}) {
      const auto here = observer->get_row(kPartition, "tasks", row_id);
      const auto there = replayed->get_row(kPartition, "tasks", row_id);
      if (here.has_value() != there.has_value() ||
          (here && (here->server_version != there->server_version ||
                    here->scopes != there->scopes || here->payload != there->payload))) {
        wrong("row " + row_id + " differs from the replay's");
      }
    }
    return report;
  }

  // The (clientId, clientCommitId) of every delivery played, each once.
  std::set<std::pair<std::string, std::string>> delivered_keys() const {
    std::set<std::pair<std::string, std::string>> keys;
    for (const auto& delivery : answered_) keys.insert({delivery.client_id, delivery.commit_id});
    return keys;
  }

  // What the invariants find wrong, one line each; empty when they hold.
  std::string violations() {
    auto observer = open();
    const auto commits = observer->read_commit_window(kPartition, 0, 1'000);
    std::string report;
    const auto wrong = [&](const std::string& line) { report += line + "\n"; };
    for (const auto& delivery : answered_) {
      if (!delivery.threw.empty()) wrong("a delivery of " + delivery.commit_id + " threw: " + delivery.threw);
    }
    // P1: seqs 1 … max, max as the storage says.
    const std::int64_t max = observer->get_max_commit_seq(kPartition);
    for (std::size_t i = 0; i < commits.size(); ++i) {
      if (commits[i].commit_seq != static_cast<std::int64_t>(i + 1)) {
        wrong("P1: seq " + std::to_string(commits[i].commit_seq) + " at position " +
              std::to_string(i + 1));
      }
    }
    if (max != static_cast<std::int64_t>(commits.size())) {
      wrong("P1: max commit seq " + std::to_string(max) + " with " +
            std::to_string(commits.size()) + " commits");
    }
    // P2: one commit per key, and an applied outcome names it.
    std::map<std::pair<std::string, std::string>, std::vector<std::int64_t>> seqs_of_key;
    for (const auto& commit : commits) {
      seqs_of_key[{commit.entry.client_id, commit.entry.client_commit_id}].push_back(
          commit.commit_seq);
    }
    for (const auto& [key, seqs] : seqs_of_key) {
      if (seqs.size() > 1) wrong("P2: " + key.second + " has " + std::to_string(seqs.size()) + " commits");
    }
    std::map<std::pair<std::string, std::string>, std::optional<push::StoredPushResult>> stored;
    for (const auto& key : delivered_keys()) {
      stored[key] = observer->get_push_result(kPartition, key.first, key.second);
      if (!stored[key] || stored[key]->status != push::PushStatus::applied) continue;
      const auto found = seqs_of_key.find(key);
      if (found == seqs_of_key.end() || found->second.front() != stored[key]->commit_seq) {
        wrong("P2: the applied outcome of " + key.second + " names no commit of its key");
      }
    }
    // P3: every delivery answered its key's stored outcome.
    for (const auto& delivery : answered_) {
      if (!delivery.answer) continue;
      const auto& outcome = stored[{delivery.client_id, delivery.commit_id}];
      if (!outcome) {
        if (delivery.answer->status != PushAnswerStatus::rejected) {
          wrong("P3: " + delivery.commit_id + " answered without a stored outcome");
        }
        continue;  // a refused command request stores nothing
      }
      const bool applied = outcome->status == push::PushStatus::applied;
      const bool answered_applied = delivery.answer->status != PushAnswerStatus::rejected;
      if (applied != answered_applied || delivery.answer->results != outcome->results ||
          (applied && delivery.answer->commit_seq != outcome->commit_seq)) {
        wrong("P3: a delivery of " + delivery.commit_id + " answered other than its stored outcome");
      }
    }
    // P5: every row's upserts carry versions 1, 2, 3, … in seq order.
    std::map<std::string, std::int64_t> last_version;
    for (const auto& commit : commits) {
      for (const auto& change : commit.entry.changes) {
        const std::int64_t expected = ++last_version[change.row_id];
        if (change.row_version != expected) {
          wrong("P5: " + change.row_id + " at seq " + std::to_string(commit.commit_seq) +
                " has version " + std::to_string(change.row_version.value_or(0)) + ", not " +
                std::to_string(expected));
        }
      }
    }
    // P7: the row validator ran once for a key whose outcome a pipeline that
    // reached it minted (applied, or refused by it), never for a replay, and
    // never for a conflict. P9: one notification per applied push.
    for (int key = 0; key < kKeys; ++key) {
      const PushOfKey of = push_of_key(key);
      const auto outcome = stored.find({kPushClient, of.commit_id});
      if (outcome == stored.end()) continue;  // never delivered
      const bool reached = outcome->second &&
                           (outcome->second->status == push::PushStatus::applied ||
                            (outcome->second->results.size() == 1 &&
                             outcome->second->results[0].code == "test.bad_title"));
      const int calls = validated_.count(of.title) != 0 ? validated_.at(of.title) : 0;
      if (calls != (reached ? 1 : 0)) {
        wrong("P7: the row validator ran " + std::to_string(calls) + " times for " + of.commit_id);
      }
      if (outcome->second && outcome->second->status == push::PushStatus::applied) {
        const std::int64_t seq = outcome->second->commit_seq.value_or(0);
        const int sent = notified_.count(seq) != 0 ? notified_.at(seq) : 0;
        if (sent != 1) {
          wrong("P9: " + std::to_string(sent) + " notifications of " + of.commit_id);
        }
      }
    }
    for (const auto& [seq, sent] : notified_) {
      const bool of_a_push = std::any_of(commits.begin(), commits.end(), [&](const auto& c) {
        return c.commit_seq == seq && c.entry.client_id == kPushClient;
      });
      if (!of_a_push) wrong("P9: a notification of seq " + std::to_string(seq) + ", no push's commit");
    }
    // P6: the counter counts every applied increment once.
    std::int64_t applied_increments = 0;
    for (const auto& [key, outcome] : stored) {
      const bool increment = key.first != kPushClient;
      if (increment && outcome && outcome->status == push::PushStatus::applied) ++applied_increments;
    }
    const std::int64_t counted = counter_value(*observer);
    if (counted != applied_increments) {
      wrong("P6: the counter holds " + std::to_string(counted) + " after " +
            std::to_string(applied_increments) + " applied increments");
    }
    return report;
  }

 private:
  static constexpr const char* kPushClient = "client-1";

  std::unique_ptr<storage::ServerStorage> open() {
    auto storage = harness::current_candidate().open_server_storage(database_->location(), {});
    RC_ASSERT(storage != nullptr);
    storage->ensure_schema(schema_);
    return storage;
  }

  harness::Candidate& candidate() { return harness::current_candidate(); }

  // The idempotency key (clientId, clientCommitId) a push or registered
  // increment is delivered under.
  static std::pair<std::string, std::string> key_of(const Delivery& delivery) {
    if (delivery.kind == Kind::push) return {kPushClient, push_of_key(delivery.key).commit_id};
    return {R"(["remote-command","user-1","app"])",
            R"(["inc","req)" + std::to_string(delivery.key) + R"("])"};
  }

  // A push's options: the row validator refuses the title "bad" and counts
  // its calls by title (a title names its key: push_of_key); the notifier
  // counts notifications by commit seq.
  push::PushOptions options() {
    push::PushOptions options;
    options.clock = [] { return std::int64_t{1'000}; };
    options.row_validators["tasks"] = [this](const push::RowValidation& op) {
      const auto title = op.row ? harness::task_title(*op.row) : std::nullopt;
      {
        std::lock_guard lock(mutex_);
        ++validated_[title.value_or("")];
      }
      if (title == "bad") throw push::ValidationRejection("test.bad_title");
    };
    options.notify = [this](const push::CommitNotification& notification) {
      std::lock_guard lock(mutex_);
      ++notified_[notification.commit_seq];
    };
    return options;
  }

  storage::Bytes task(const std::string& id, const std::string& title) {
    return candidate().rows().encode(schema_.find("tasks")->layout(),
                                     storage::Row{id, std::string("p1"), title, false});
  }

  std::int64_t counter_value(storage::ServerStorage& storage) {
    const auto row = storage.get_row(kPartition, "tasks", kCounter);
    if (!row) return 0;
    const auto title = harness::task_title(
        candidate().rows().decode(schema_.find("tasks")->layout(), row->payload));
    return title ? std::stoll(*title) : -1;
  }

  void record(Answered answered) {
    std::lock_guard lock(mutex_);
    answered_.push_back(std::move(answered));
  }

  // A case on a fresh database with `storages` storages of the candidate.
  Case(Backend backend, const Workload& plan, std::optional<harness::CapabilityGrant> push_hooks,
       std::size_t storages)
      : plan_(plan), backend_(backend), push_hooks_(push_hooks) {
    database_ = harness::create_test_database(backend);
    schema_ = harness::compiled(harness::push_schema());
    for (std::size_t i = 0; i < storages; ++i) storages_.push_back(open());
  }

  void deliver(std::size_t session, std::size_t index) {
    const Delivery& delivery = plan_[session][index];
    if (delivery.kind == Kind::unlocked_increment) {
      unlocked_increment(*storages_[session],
                         "u" + std::to_string(session) + "-" + std::to_string(index));
      return;
    }
    play_delivery(*storages_[session], delivery, [this, session, index] {
      std::lock_guard lock(mutex_);
      lock_order_.emplace_back(session, index);
    });
  }

  // Plays a push or a registered increment through `storage`; `decided` runs
  // when it reaches H3, the lock order (only with push_hooks_).
  void play_delivery(storage::ServerStorage& storage, const Delivery& delivery,
                     const std::function<void()>& decided) {
    const auto with_lock_order_hook = [&](push::PushOptions& options) {
      if (!push_hooks_ || !decided) return;
      harness::install_push_hook(*push_hooks_, options, [decided](push::PushHookPoint point) {
        if (point == push::PushHookPoint::after_locked_recheck) decided();
      });
    };
    const push::PushActor actor{kPartition, "user-1", harness::all_scopes()};
    Answered answered;
    try {
      switch (delivery.kind) {
        case Kind::push: {
          const PushOfKey of = push_of_key(delivery.key);
          std::tie(answered.client_id, answered.commit_id) = key_of(delivery);
          const push::PushCommit commit{
              kPushClient, of.commit_id,
              {push::PushOperation{"tasks", of.row_id, push::OperationKind::upsert,
                                   task(of.row_id, of.title), of.base_version}}};
          push::PushOptions push_options = options();
          with_lock_order_hook(push_options);
          answered.answer = candidate().push().push(storage, schema_, actor, commit, push_options);
          break;
        }
        case Kind::increment: {
          const push::CommandRequest request{"inc", "app", "req" + std::to_string(delivery.key)};
          std::tie(answered.client_id, answered.commit_id) = key_of(delivery);
          push::PushOptions carried;
          carried.clock = [] { return std::int64_t{1'000}; };
          with_lock_order_hook(carried);
          answered.answer = candidate().commands().command(
              storage, schema_, actor, request,
              wire::DeclaredCommand{wire::DeclaredCommand::Kind::increment, kCounter, "p1"}, true,
              carried);
          break;
        }
        case Kind::unlocked_increment:
          throw std::logic_error("an unlocked increment is played by deliver");
      }
    } catch (const std::exception& error) {
      answered.threw = error.what();
    }
    record(std::move(answered));
  }

  // A hand-rolled increment without the partition lock (design notes push.md
  // §3.2): read, wait until every unlocked increment of the case has read
  // (or the database shows a session held back by a lock: waiting further
  // could deadlock), write the counter at the version read plus one, append,
  // store the result, commit. Its key is its own, so it never replays.
  void unlocked_increment(storage::ServerStorage& storage, const std::string& commit_id) {
    Answered answered;
    answered.client_id = "hand";
    answered.commit_id = commit_id;
    try {
      auto tx = storage.begin(kPartition);
      if (!tx) throw std::runtime_error("the candidate's begin returned no transaction");
      const auto stored = tx->get_row("tasks", kCounter);
      std::int64_t count = 0;
      if (stored) {
        const auto values =
            candidate().rows().decode(schema_.find("tasks")->layout(), stored->payload);
        if (const auto title = harness::task_title(values)) count = std::stoll(*title);
      }
      unlocked_read_.fetch_add(1);
      harness::eventually(
          [&] { return unlocked_read_.load() >= unlocked_total_ || database_->shows_lock_waits(1); },
          harness::kWatchdog);
      const std::int64_t version = stored ? stored->server_version + 1 : 1;
      const storage::Bytes payload = task(kCounter, std::to_string(count + 1));
      const std::map<std::string, std::string> scopes{{"project_id", "p1"}};
      tx->upsert_row("tasks", storage::StoredRow{kCounter, version, scopes, payload}, 0);
      const std::int64_t seq = tx->append_commit(storage::CommitEntry{
          answered.client_id, answered.commit_id, "user-1", 1'000,
          {storage::Change{"tasks", kCounter, storage::ChangeOp::upsert, version, scopes, payload}}});
      push::StoredPushResult result;
      result.commit_seq = seq;
      result.recorded_at_ms = 1'000;
      result.results = {push::OperationResult{}};
      tx->put_push_result(answered.client_id, answered.commit_id, result);
      tx->commit();
      push::PushAnswer answer;
      answer.commit_seq = seq;
      answer.results = result.results;
      answered.answer = answer;
    } catch (const std::exception& error) {
      answered.threw = error.what();
    }
    record(std::move(answered));
  }

  const Workload& plan_;
  Backend backend_;
  std::optional<harness::CapabilityGrant> push_hooks_;
  std::unique_ptr<harness::TestDatabase> database_;
  storage::CompiledSchema schema_;
  std::vector<std::unique_ptr<storage::ServerStorage>> storages_;
  std::mutex mutex_;
  std::vector<Answered> answered_;
  std::map<std::string, int> validated_;         // row validator calls by title
  std::map<std::int64_t, int> notified_;         // notifications by commit seq
  std::atomic<int> unlocked_read_{0};
  int unlocked_total_ = 0;
  std::vector<std::pair<std::size_t, std::size_t>> lock_order_;  // (session, index) at H3
};

// The candidate, the backend and the capabilities one case needs: push
// alone; registered increments join the workload where the candidate has
// `commands` (issue 34: the properties run for every push candidate).
class PushConcurrency : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    harness::Candidate& candidate = harness::current_candidate();
    for (const auto needed :
         {harness::Capability::server_storage, harness::Capability::schema,
          harness::Capability::rows, harness::Capability::push, harness::Capability::transactions}) {
      SSP_REQUIRE_CAPABILITY(candidate, needed);
    }
    SSP_SKIP_UNLESS_BACKEND_READY(candidate, GetParam());
  }

  // Which lock order P4 replays: none (P1 alone), the one H3 observes (with
  // push hooks), the one the run's record implies (any push candidate).
  enum class Replay { none, observed, implied };

  // The invariants over one generated workload, and P4 as `replay` says;
  // `push_hooks` for Replay::observed.
  std::function<void()> property(bool unlocked, Replay replay = Replay::none,
                                 std::optional<harness::CapabilityGrant> push_hooks = {}) {
    const Backend backend = GetParam();
    const bool increments =
        !harness::capability_gate(harness::current_candidate(), harness::Capability::commands);
    return [backend, unlocked, increments, replay, push_hooks] {
      const Workload plan = *workload(unlocked, increments);
      Case played(backend, plan, push_hooks);
      played.play();
      std::string wrong = played.violations();
      if (replay == Replay::observed) wrong += played.replay_violations(played.observed_lock_order());
      if (replay == Replay::implied) wrong += played.replay_violations(played.order_the_log_implies());
      if (!wrong.empty()) RC_FAIL(wrong);  // names what broke; RapidCheck shows the workload
    };
  }
};

// Cases per search: each builds up to 16 storages on a fresh database.
constexpr int kCases = 20;

TEST_P(PushConcurrency, PUSH_P1_ConcurrentDeliveriesKeepSeqsKeysOutcomesVersionsAndCounts) {
  harness::record_spec("§2.1, §2.3, §6.3", "PUSH-P1");
  check_property(property(false), kCases);
}

// Each P4 case also replays its deliveries on a second fresh database.
constexpr int kReplayCases = 10;

TEST_P(PushConcurrency, PUSH_P4_ASerialReplayInLockOrderReproducesEveryOutcomeAndRow) {
  harness::record_spec("§6.3, §6.8", "PUSH-P4");
  SSP_GRANT_CAPABILITY(push_hooks, harness::current_candidate(), harness::Capability::push_hooks);
  check_property(property(false, Replay::observed, push_hooks), kReplayCases);
}

// The same without hooks (issue 34): the lock order is the one the commit
// log and the stored outcomes imply.
TEST_P(PushConcurrency, PUSH_P4_ASerialReplayInTheOrderTheLogImpliesReproducesEveryOutcomeAndRow) {
  harness::record_spec("§6.3, §6.8", "PUSH-P4");
  check_property(property(false, Replay::implied), kReplayCases);
}

TEST_P(PushConcurrency, PUSH_P_NEG_REF_UnlockedIncrementsBreakTheInvariantsOnPostgresOnly) {
  harness::record_spec("§6.3, §6.8", "PUSH-P-NEG-REF");
  if (GetParam() == Backend::sqlite) {
    // SQLite's begin takes the write lock: the same workload stays serial.
    check_property(property(true), kCases);
    return;
  }
  const auto found = find_counterexample(property(true), kCases);
  ASSERT_TRUE(found.has_value())
      << "no case of unlocked increments broke an invariant on PostgreSQL: the search cannot "
         "see the race it exists to find";
  std::cout << "the negative control's counterexample, as expected:\n" << *found << "\n";
}

INSTANTIATE_TEST_SUITE_P(, PushConcurrency,
                         ::testing::Values(Backend::sqlite, Backend::postgres),
                         harness::storage_param_name);

}  // namespace
}  // namespace ssp::properties
