#include "harness/driver/push/push_callbacks.hpp"

#include <vector>

#include "harness/errors/candidate_killed.hpp"
#include "harness/errors/driver_error.hpp"
#include "wire/push_values.hpp"

namespace ssp::harness {
namespace {

using wire::Json;

// The validator's read over the call's own transaction, in the process
// running it; `call` is the id of that push.run or command.run.
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
// the call instead, and so does CandidateKilled (a fault the test injects).
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

}  // namespace

Json push_callbacks_to_json(const push::PushOptions& options) {
  Json validators = Json::array();
  for (const auto& [table, validator] : options.row_validators) {
    if (validator) validators.push_back(table);
  }
  return Json{{"rowValidators", std::move(validators)},
              {"commitValidator", static_cast<bool>(options.commit_validator)},
              {"notify", static_cast<bool>(options.notify)},
              {"hooks", static_cast<bool>(options.hook)}};
}

Json answer_push_callback(const std::string& method, const std::string& name,
                          const wire::Fields& params, DriverHandle& handle,
                          const push::PushOptions& options, HookTrail& trail) {
  const auto decode = [&](auto&& read) { return decode_answer(method, read); };
  const auto violation = [&](const std::string& problem) {
    return DriverError(method, "protocol violation: " + problem);
  };
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
      throw violation("validate_row for table \"" + op.table + "\", which has no validator");
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
    options.notify(decode([&] { return wire::notification_from_json(params.whole(), "params"); }));
    return Json::object();
  }
  throw violation("a " + name + " callback the call was not sent with");
}

}  // namespace ssp::harness
