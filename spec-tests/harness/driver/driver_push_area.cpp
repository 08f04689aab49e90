// PushArea over a driver's push.run (docs/driver-protocol.md, "push"): the
// test's validators, notifier and hook run here when the driver calls back,
// and the whole-commit validator reads through push.read_row and
// push.scan_rows while its callback is unanswered.
#include <vector>

#include "harness/driver/driver_areas.hpp"
#include "harness/driver/driver_server_storage.hpp"
#include "harness/driver/push_hook_trail.hpp"
#include "harness/errors/candidate_killed.hpp"
#include "harness/errors/driver_error.hpp"
#include "harness/errors/harness_error.hpp"
#include "wire/push_values.hpp"
#include "wire/wire_values.hpp"

namespace ssp::harness {
namespace {

using push::PushHookPoint;
using wire::Json;

constexpr std::string_view kPushRun = "push.run";

[[noreturn]] void violation(const std::string& problem) {
  throw DriverError(std::string(kPushRun), "protocol violation: " + problem);
}

// The validator's read over the push's own transaction, in the process
// running the push; `call` is the id of that push.run.
class DriverCommitReader final : public push::CommitReader {
 public:
  DriverCommitReader(DriverProcess& process, Json call) : process_(process), call_(std::move(call)) {}

  std::optional<storage::StoredRow> get_row(const std::string& table,
                                            const std::string& row_id) override {
    const Json result =
        process_.call("push.read_row", {{"call", call_}, {"table", table}, {"rowId", row_id}});
    return decode_answer("push.read_row", [&] { return wire::row_answer_from_json(result, "result"); });
  }

  std::vector<storage::StoredRow> scan_rows(const storage::RowScan& scan) override {
    Json params = wire::row_scan_to_json(scan);
    params["call"] = call_;
    const Json result = process_.call("push.scan_rows", std::move(params));
    return decode_answer("push.scan_rows", [&] {
      return wire::stored_rows_from_json(wire::Fields(result, "result").at("rows"),
                                         "result.rows");
    });
  }

 private:
  DriverProcess& process_;
  Json call_;
};

// What the test's validator did, as the verdict the doc defines. A
// DriverError (the driver broke the protocol while the validator read) ends
// the push instead, and so does CandidateKilled (a fault the test injects).
template <class Validate>
wire::ValidatorVerdict verdict_of(Validate&& validate) {
  using Kind = wire::ValidatorVerdict::Kind;
  try {
    validate();
    return {};
  } catch (const push::CommitValidationRejection& rejection) {
    return {Kind::rejected, rejection.op_index(), rejection.code(), rejection.what(),
            rejection.details_json()};
  } catch (const push::ValidationRejection& rejection) {
    return {Kind::rejected, std::nullopt, rejection.code(), rejection.what(),
            rejection.details_json()};
  } catch (const DriverError&) {
    throw;
  } catch (const CandidateKilled&) {
    throw;
  } catch (const std::exception& thrown) {
    return {Kind::threw, std::nullopt, {}, thrown.what(), std::nullopt};
  } catch (...) {
    return {Kind::threw, std::nullopt, {}, "unknown exception", std::nullopt};
  }
}

class DriverPushArea final : public PushArea {
 public:
  explicit DriverPushArea(bool hooks_advertised) : hooks_advertised_(hooks_advertised) {}

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
      return callback(name, params, *handle, options, trail);
    };
    const Json result = handle->call_method(
        std::string(kPushRun), run_params(schema, actor, commit, options), on_callback);
    const push::PushAnswer answer = decode_answer(
        std::string(kPushRun), [&] { return wire::push_answer_from_json(result, "result"); });
    if (options.hook) trail.check(answer);
    return answer;
  }

 private:
  // The clock and the cache identity are read once per push, here: the
  // protocol carries their values (docs/driver-protocol.md, push.run).
  static Json run_params(const storage::CompiledSchema& schema, const push::PushActor& actor,
                         const push::PushCommit& commit, const push::PushOptions& options) {
    Json validators = Json::array();
    for (const auto& [table, validator] : options.row_validators) {
      if (validator) validators.push_back(table);
    }
    return Json{{"schema", wire::compiled_schema_to_json(schema)},
                {"actor", wire::push_actor_to_json(actor)},
                {"commit", wire::push_commit_to_json(commit)},
                {"nowMs", options.clock()},
                {"maxOperationsPerRequest", options.max_operations_per_request},
                {"cacheIdentity",
                 options.new_cache_identity ? Json(options.new_cache_identity()) : Json()},
                {"callbacks",
                 {{"rowValidators", std::move(validators)},
                  {"commitValidator", static_cast<bool>(options.commit_validator)},
                  {"notify", static_cast<bool>(options.notify)},
                  {"hooks", static_cast<bool>(options.hook)}}}};
  }

  static Json callback(const std::string& name, const wire::Fields& params, DriverHandle& handle,
                       const push::PushOptions& options, HookTrail& trail) {
    const auto decode = [&](auto&& read) { return decode_answer(std::string(kPushRun), read); };
    if (name == "hook" && options.hook) {
      const auto point = decode([&] {
        const auto found = wire::push_hook_point_from_name(params.text("point"));
        if (!found) throw wire::WireError(params.path_of("point") + ": not a push hook point");
        return *found;
      });
      trail.pass(point);
      options.hook(point);
      return Json::object();
    }
    if (name == "validate_row") {
      const push::RowValidation op =
          decode([&] { return wire::row_validation_from_json(params.whole(), "params"); });
      const auto found = options.row_validators.find(op.table);
      if (found == options.row_validators.end() || !found->second) {
        violation("validate_row for table \"" + op.table + "\", which has no validator");
      }
      return wire::verdict_to_json(verdict_of([&] { found->second(op); }));
    }
    if (name == "validate_commit" && options.commit_validator) {
      auto fields =
          decode([&] { return wire::commit_validation_from_json(params.whole(), "params"); });
      DriverCommitReader reader(handle.process(), params.at("call"));
      const push::CommitValidation input{fields.client_id, fields.client_commit_id,
                                         fields.actor_id,  fields.partition,
                                         std::move(fields.operations), reader};
      return wire::verdict_to_json(verdict_of([&] { options.commit_validator(input); }));
    }
    if (name == "notify" && options.notify) {
      options.notify(
          decode([&] { return wire::notification_from_json(params.whole(), "params"); }));
      return Json::object();
    }
    violation("a " + name + " callback the push was not run with");
  }

  const bool hooks_advertised_;
};

}  // namespace

std::unique_ptr<PushArea> make_driver_push_area(bool hooks_advertised) {
  return std::make_unique<DriverPushArea>(hooks_advertised);
}

}  // namespace ssp::harness
