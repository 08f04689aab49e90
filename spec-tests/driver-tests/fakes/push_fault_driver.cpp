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
// And one fault of the process's life (HARNESS-48):
//  - close-fails: segments.close closes the store, then answers an error, so
//    the harness must not hand the process to another store.
#include <iostream>
#include <stdexcept>

#include "connection.hpp"
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
  const storage::CompiledSchema schema = compiled_schema_of(params);
  const push::PushActor actor =
      wire::push_actor_from_json(params.at("actor"), params.path_of("actor"));
  for (const auto& op : wire::push_commit_from_json(params.at("commit"), "commit").operations) {
    const auto validator = validators.find(op.table);
    const storage::CompiledTable* table = schema.find(op.table);
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
  } else if (fault == "close-fails") {
    methods["segments.close"] = close_fails(methods["segments.close"]);
  } else {
    std::cerr << "usage: ssp-fake-push-driver commits-before-validating | applied-for-replay | "
                 "skips-a-hook-point | upsert-loses-its-error | relays-an-invalid-stored-result | "
                 "close-fails\n";
    return 2;
  }
  std::ios::sync_with_stdio(false);
  std::cin.tie(nullptr);
  Connection connection(std::cin, std::cout);
  return serve(connection, methods);
}
