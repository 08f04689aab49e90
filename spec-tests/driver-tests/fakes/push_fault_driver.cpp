// ssp-fake-push-driver FAULT: the reference driver with one method wrong, for
// the harness's own tests. The push faults (HARNESS-34) are each one way a
// real implementation can get push wrong, and a conformance run against it
// must fail or err, never pass:
//  - commits-before-validating: push.run applies the commit with no row
//    validator, then calls validate_row for each upsert and ignores the
//    verdicts;
//  - applied-for-replay: a replayed applied push answers "applied" instead of
//    "cached";
//  - skips-a-hook-point: push.run never calls back at before_append_commit;
//  - upsert-loses-its-error: tx.upsert_row answers success whatever its
//    statement did (an error such as an unknown table is lost). Deterministic
//    on purpose: a fault that raced the server loop was caught sometimes as a
//    wrong answer and sometimes as a protocol violation;
//  - relays-an-invalid-stored-result: storage.get_push_result and
//    tx.get_push_result stand for an implementation that reads an unreadable
//    stored result as valid: where the reference misses the cache, they relay
//    that answer as ssp.invalid_result (D-4 must fail, not err).
// Faults that only a process killed part-way, or a lost answer, can find
// (issue 35, the negative controls of docs/faults.md):
//  - stores-the-result-after-commit: the push's transaction commits without
//    its stored result, which a second transaction writes once the push has
//    notified: a process that dies at the notification leaves a commit whose
//    result is nowhere (FAULT-1, killed at notify#1);
//  - commits-the-rows-before-the-result: the rows and the commit log are
//    committed when the result is about to be stored, and the result in a
//    transaction of its own at the push's COMMIT: a process that dies between
//    (hook point before_commit) leaves rows without their result (FAULT-1);
//  - replays-from-memory: the pipeline finds only the stored results this
//    process wrote, as an implementation that replays from a cache in memory:
//    a retry that reaches a new process applies the push again (FAULT-3),
//    and runs a remote command again (FAULT-11).
//  - never-answers-a-failed-push: push.run and command.run, when the call
//    fails (its connection cut), never answer, as upstream's push does when
//    Bun.sql loses its PostgreSQL connection (docs/findings/syncular.md): the
//    cut plans must fail it (fails-cleanly), not err (FAULT-5, FAULT-12).
// And one fault of the process's life (HARNESS-48):
//  - close-fails: segments.close closes the store, then answers an error, so
//    the harness must not hand the process to another store.
#include <chrono>
#include <iostream>
#include <thread>
#include <stdexcept>

#include <set>
#include <utility>

#include "connection.hpp"
#include "forwarding_storage.hpp"
#include "error_answer.hpp"
#include "server.hpp"
#include "ssp/push/push_pipeline.hpp"
#include "ssp/storage/push_result.hpp"
#include "ssp/storage/row_codec.hpp"
#include "wire/push_values.hpp"
#include "wire/wire_values.hpp"

namespace ssp::driver {
namespace {

Json commits_before_validating(const Fields& params) {
  push::PushOptions options = push_options_of(params);
  const auto validators = std::move(options.row_validators);
  options.row_validators.clear();
  const Json answer = run_push_request(params, options);
  const auto schema = push_schema_of(params);
  const push::PushActor actor =
      wire::push_actor_from_json(params.at("actor"), params.path_of("actor"));
  for (const auto& op : wire::push_commit_from_json(params.at("commit"), "commit").operations) {
    const auto validator = validators.find(op.table);
    const storage::CompiledTable* table = schema->find(op.table);
    if (validator == validators.end() || table == nullptr || !op.payload) continue;
    push::RowValidation late{op.op, op.table, op.row_id,
                             storage::decode_row(table->layout(), *op.payload), std::nullopt,
                             actor.actor_id, actor.partition};
    try {
      validator->second(late);
    } catch (const std::exception&) {
      // Too late: the commit is durable.
    }
  }
  return answer;
}

Method applied_for_replay(Method real) {
  return [real](const Fields& params) {
    Json answer = real(params);
    if (answer.at("status") == "cached") answer["status"] = "applied";
    return answer;
  };
}

Json skips_a_hook_point(const Fields& params) {
  push::PushOptions options = push_options_of(params);
  if (options.hook) {
    options.hook = [hook = options.hook](push::PushHookPoint point) {
      if (point != push::PushHookPoint::before_append_commit) hook(point);
    };
  }
  return run_push_request(params, options);
}

Method upsert_loses_its_error(Method real) {
  return [real](const Fields& params) {
    try {
      real(params);
    } catch (const std::exception& lost) {
      std::cerr << "ssp-fake-push-driver: the upsert's error is lost: " << lost.what() << "\n";
    }
    return Json::object();
  };
}

Method reads_an_unreadable_result_as_valid(Method real) {
  return [real](const Fields& params) -> Json {
    try {
      return real(params);
    } catch (const ssp::push::IdempotencyCacheMiss& miss) {
      throw InvalidResult("the stored push result was read as valid, but is not a result",
                          "(the stored text, which the reference refused: " +
                              std::string(miss.what()) + ")");
    }
  };
}

// A stored result a fake writes later than the push's transaction.
struct HeldResult {
  std::string partition;
  std::string client_id;
  std::string client_commit_id;
  push::StoredPushResult result;
};

// Stores `held` in a transaction of its own, under the partition lock.
void store_apart(storage::ServerStorage& storage, const HeldResult& held) {
  const auto tx = storage.begin(held.partition);
  tx->lock_partition_for_push();
  tx->put_push_result(held.client_id, held.client_commit_id, held.result);
  tx->commit();
}

// The push's transaction, its stored result withheld into `held`.
class ResultWithheld final : public ForwardingPushTransaction {
 public:
  ResultWithheld(std::unique_ptr<storage::PushTransaction> inner, std::optional<HeldResult>& held)
      : ForwardingPushTransaction(std::move(inner)), held_(held) {}
  void put_push_result(const std::string& client_id, const std::string& client_commit_id,
                       const push::StoredPushResult& result) override {
    held_ = HeldResult{partition(), client_id, client_commit_id, result};
  }

 private:
  std::optional<HeldResult>& held_;
};

class StorageWithholdingResults final : public ForwardingServerStorage {
 public:
  using ForwardingServerStorage::ForwardingServerStorage;
  std::unique_ptr<storage::PushTransaction> begin(const std::string& partition) override {
    return std::make_unique<ResultWithheld>(inner().begin(partition), held);
  }
  std::optional<HeldResult> held;
};

Json stores_the_result_after_commit(const Fields& params) {
  const auto real = server_storage_of(params);
  StorageWithholdingResults storage(*real);
  const Json answer = run_push_request(params, push_options_of(params), storage);
  if (storage.held) store_apart(*real, *storage.held);  // after COMMIT and the notification
  return answer;
}

// The rows committed as the result is about to be stored; the result at COMMIT.
class RowsCommittedFirst final : public ForwardingPushTransaction {
 public:
  RowsCommittedFirst(std::unique_ptr<storage::PushTransaction> inner, storage::ServerStorage& storage)
      : ForwardingPushTransaction(std::move(inner)), storage_(storage) {}
  void put_push_result(const std::string& client_id, const std::string& client_commit_id,
                       const push::StoredPushResult& result) override {
    held_ = HeldResult{partition(), client_id, client_commit_id, result};
    inner().commit();
  }
  void commit() override {
    if (!held_) return inner().commit();
    store_apart(storage_, *held_);
  }

 private:
  storage::ServerStorage& storage_;
  std::optional<HeldResult> held_;
};

class StorageCommittingRowsFirst final : public ForwardingServerStorage {
 public:
  using ForwardingServerStorage::ForwardingServerStorage;
  std::unique_ptr<storage::PushTransaction> begin(const std::string& partition) override {
    return std::make_unique<RowsCommittedFirst>(inner().begin(partition), inner());
  }
};

Json commits_the_rows_before_the_result(const Fields& params) {
  const auto real = server_storage_of(params);
  StorageCommittingRowsFirst storage(*real);
  return run_push_request(params, push_options_of(params), storage);
}

// The idempotency keys whose results this process stored.
std::set<std::pair<std::string, std::string>>& remembered_results() {
  static std::set<std::pair<std::string, std::string>> keys;
  return keys;
}

std::optional<push::StoredPushResult> if_remembered(
    const std::string& client_id, const std::string& client_commit_id,
    const std::function<std::optional<push::StoredPushResult>()>& read) {
  if (!remembered_results().contains({client_id, client_commit_id})) return std::nullopt;
  return read();
}

class TransactionReplayingFromMemory final : public ForwardingPushTransaction {
 public:
  using ForwardingPushTransaction::ForwardingPushTransaction;
  std::optional<push::StoredPushResult> get_push_result(
      const std::string& client_id, const std::string& client_commit_id) override {
    return if_remembered(client_id, client_commit_id,
                         [&] { return inner().get_push_result(client_id, client_commit_id); });
  }
  void put_push_result(const std::string& client_id, const std::string& client_commit_id,
                       const push::StoredPushResult& result) override {
    inner().put_push_result(client_id, client_commit_id, result);
    remembered_results().insert({client_id, client_commit_id});
  }
  void commit_rejected_push_result(const std::string& client_id,
                                   const std::string& client_commit_id,
                                   const push::StoredPushResult& result) override {
    inner().commit_rejected_push_result(client_id, client_commit_id, result);
    remembered_results().insert({client_id, client_commit_id});
  }
};

class StorageReplayingFromMemory final : public ForwardingServerStorage {
 public:
  using ForwardingServerStorage::ForwardingServerStorage;
  std::unique_ptr<storage::PushTransaction> begin(const std::string& partition) override {
    return std::make_unique<TransactionReplayingFromMemory>(inner().begin(partition));
  }
  std::optional<push::StoredPushResult> get_push_result(
      const std::string& partition, const std::string& client_id,
      const std::string& client_commit_id) override {
    return if_remembered(client_id, client_commit_id, [&] {
      return inner().get_push_result(partition, client_id, client_commit_id);
    });
  }
};

Json replays_from_memory(const Fields& params) {
  const auto real = server_storage_of(params);
  StorageReplayingFromMemory storage(*real);
  return run_push_request(params, push_options_of(params), storage);
}

Json command_replays_from_memory(const Fields& params) {
  const auto real = server_storage_of(params);
  StorageReplayingFromMemory storage(*real);
  return run_command_request(params, storage);
}

Method never_answers_when_it_fails(Method real) {
  return [real](const Fields& params) -> Json {
    try {
      return real(params);
    } catch (const std::exception& failure) {
      std::cerr << "ssp-fake-push-driver: the call failed (" << failure.what()
                << "); it will never answer\n";
      for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
    }
  };
}

Method close_fails(Method real) {
  return [real](const Fields& params) -> Json {
    real(params);
    throw std::runtime_error("the fake's segments.close fails after closing the store");
  };
}

}  // namespace
}  // namespace ssp::driver

int main(int argc, char** argv) {
  using namespace ssp::driver;
  const std::string fault = argc == 2 ? argv[1] : "";
  MethodTable methods = all_methods();
  if (fault == "commits-before-validating") {
    methods["push.run"] = commits_before_validating;
  } else if (fault == "applied-for-replay") {
    methods["push.run"] = applied_for_replay(methods["push.run"]);
  } else if (fault == "skips-a-hook-point") {
    methods["push.run"] = skips_a_hook_point;
  } else if (fault == "upsert-loses-its-error") {
    methods["tx.upsert_row"] = upsert_loses_its_error(methods["tx.upsert_row"]);
  } else if (fault == "relays-an-invalid-stored-result") {
    for (const char* method : {"storage.get_push_result", "tx.get_push_result"}) {
      methods[method] = reads_an_unreadable_result_as_valid(methods[method]);
    }
  } else if (fault == "stores-the-result-after-commit") {
    methods["push.run"] = stores_the_result_after_commit;
  } else if (fault == "commits-the-rows-before-the-result") {
    methods["push.run"] = commits_the_rows_before_the_result;
  } else if (fault == "replays-from-memory") {
    methods["push.run"] = replays_from_memory;
    methods["command.run"] = command_replays_from_memory;
  } else if (fault == "never-answers-a-failed-push") {
    for (const char* method : {"push.run", "command.run"}) {
      methods[method] = never_answers_when_it_fails(methods[method]);
    }
  } else if (fault == "close-fails") {
    methods["segments.close"] = close_fails(methods["segments.close"]);
  } else {
    std::cerr << "usage: ssp-fake-push-driver commits-before-validating | applied-for-replay | "
                 "skips-a-hook-point | upsert-loses-its-error | relays-an-invalid-stored-result | "
                 "stores-the-result-after-commit | commits-the-rows-before-the-result | "
                 "replays-from-memory | never-answers-a-failed-push | close-fails\n";
    return 2;
  }
  return serve_standard_streams(methods);
}
