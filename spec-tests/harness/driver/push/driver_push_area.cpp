// PushArea over a driver's push.run (docs/driver-protocol.md, "push"): the
// test's validators, notifier and hook run here when the driver calls back,
// and the whole-commit validator reads through push.read_row and
// push.scan_rows while its callback is unanswered.
#include "harness/driver/driver_areas.hpp"
#include "harness/driver/driver_server_storage.hpp"
#include "harness/driver/push/push_callbacks.hpp"
#include "harness/driver/push/push_hook_trail.hpp"
#include "harness/driver/push/push_schema_param.hpp"
#include "harness/errors/driver_error.hpp"
#include "harness/errors/harness_error.hpp"
#include "wire/push_values.hpp"
#include "wire/wire_values.hpp"

namespace ssp::harness {
namespace {

using wire::Json;

constexpr std::string_view kPushRun = "push.run";

class DriverPushArea final : public PushArea {
 public:
  DriverPushArea(bool hooks_advertised, bool ensured_schema)
      : hooks_advertised_(hooks_advertised), ensured_schema_(ensured_schema) {}

  push::PushAnswer push(storage::ServerStorage& storage, const storage::CompiledSchema& schema,
                        const push::PushActor& actor, const push::PushCommit& commit,
                        const push::PushOptions& options) override {
    DriverHandle* handle = driver_storage_handle(storage);
    if (handle == nullptr) {
      throw HarnessError(
          "push.run: the storage is not one this driver opened (a test's decorator cannot cross "
          "the protocol)");
    }
    if (options.hook && !hooks_advertised_) {
      throw HarnessError("push.run: a hook was installed, but the driver's hello does not "
                         "advertise pushHooks, and the test did not skip at its capability gate");
    }
    if (!options.clock) throw InvalidArgument("PushOptions::clock is required");
    HookTrail trail{std::string(kPushRun)};
    const auto on_callback = [&](const std::string& name, const wire::Fields& params) -> Json {
      return answer_push_callback(std::string(kPushRun), name, params, *handle, options, trail);
    };
    Json params = run_params(actor, commit, options);
    add_push_schema(params, std::string(kPushRun), storage, schema, ensured_schema_);
    const Json result = handle->call_method(std::string(kPushRun), std::move(params), on_callback);
    const push::PushAnswer answer = decode_answer(
        std::string(kPushRun), [&] { return wire::push_answer_from_json(result, "result"); });
    if (options.hook) trail.check(answer);
    return answer;
  }

 private:
  // The clock and the cache identity are read once per push, here: the
  // protocol carries their values (docs/driver-protocol.md, push.run).
  static Json run_params(const push::PushActor& actor, const push::PushCommit& commit,
                         const push::PushOptions& options) {
    return Json{{"actor", wire::push_actor_to_json(actor)},
                {"commit", wire::push_commit_to_json(commit)},
                {"nowMs", options.clock()},
                {"maxOperationsPerRequest", options.max_operations_per_request},
                {"cacheIdentity",
                 options.new_cache_identity ? Json(options.new_cache_identity()) : Json()},
                {"callbacks", push_callbacks_to_json(options)}};
  }

  const bool hooks_advertised_;
  const bool ensured_schema_;  // the hello's ensuredSchema
};

}  // namespace

std::unique_ptr<PushArea> make_driver_push_area(const DriverHello& hello) {
  return std::make_unique<DriverPushArea>(hello.push_hooks, hello.ensured_schema);
}

}  // namespace ssp::harness
