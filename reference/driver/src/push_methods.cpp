// push.* (docs/driver-protocol.md, "push"): the reference's run_push, with the
// test's validators, notifier and hook points carried as callbacks, and the
// whole-commit validator's reader served as requests while its callback is
// unanswered.
#include <map>
#include <mutex>

#include "methods.hpp"
#include "ssp/push/push_pipeline.hpp"
#include "wire/push_values.hpp"
#include "wire/wire_values.hpp"

namespace ssp::driver {
namespace {

// The readers of the validate_commit callbacks in flight, by the id of the
// push.run they serve. A reader lives on the stack of its push, so it is
// registered exactly while its callback waits.
class Readers {
 public:
  class Registration {
   public:
    Registration(Readers& readers, std::string call, push::CommitReader& reader)
        : readers_(readers), call_(std::move(call)) {
      std::lock_guard lock(readers_.mutex_);
      readers_.open_[call_] = &reader;
    }
    ~Registration() {
      std::lock_guard lock(readers_.mutex_);
      readers_.open_.erase(call_);
    }
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;

   private:
    Readers& readers_;
    std::string call_;
  };

  // The reader of the push `call` names; its validate_commit callback must be
  // waiting for an answer. Used by that push's thread only meanwhile.
  push::CommitReader& of(const Fields& params) {
    std::lock_guard lock(mutex_);
    const auto found = open_.find(wire::dump_line(params.at("call")));
    if (found == open_.end()) {
      throw wire::WireError(params.path_of("call") +
                            ": no push is waiting for a validate_commit answer under that id");
    }
    return *found->second;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, push::CommitReader*> open_;
};

Readers& readers() {
  static Readers open;
  return open;
}

std::string call_key() { return wire::dump_line(current_call().id); }

// The harness's verdict. An error answer means its validator threw (the
// doc); a malformed answer or a closed connection abandons the push, with the
// cause nested so that push.run answers with it (ssp.bad_request names the
// field).
wire::ValidatorVerdict ask_validator(const std::string& method, Json params) {
  try {
    return wire::verdict_from_json(current_call().callback(method, std::move(params)),
                                   method + " answer");
  } catch (const CallbackRefused& refused) {
    return wire::ValidatorVerdict{wire::ValidatorVerdict::Kind::threw, std::nullopt, {},
                                  refused.what(), std::nullopt};
  } catch (const std::exception&) {
    std::throw_with_nested(push::PushAbandoned(method + " could not be carried"));
  }
}

// Raises the verdict as the in-process validator would have: a rejection,
// another exception for "threw", nothing for "accepted".
void raise_verdict(const wire::ValidatorVerdict& verdict) {
  using Kind = wire::ValidatorVerdict::Kind;
  if (verdict.kind == Kind::threw) throw std::runtime_error(verdict.message);
  if (verdict.kind != Kind::rejected) return;
  if (verdict.op_index) {
    throw push::CommitValidationRejection(*verdict.op_index, verdict.code, verdict.message,
                                          verdict.details_json);
  }
  throw push::ValidationRejection(verdict.code, verdict.message, verdict.details_json);
}

}  // namespace

push::PushOptions carried_push_options(const Fields& params) {
  push::PushOptions options;
  options.clock = [now = params.integer("nowMs")] { return now; };
  if (const auto identity = params.nullable_text("cacheIdentity")) {
    options.new_cache_identity = [identity = *identity] { return identity; };
  }
  const Fields callbacks = params.object("callbacks");
  if (callbacks.boolean("hooks")) {
    // A refused hook throws CallbackRefused out of run_push, which rolls back:
    // the push is abandoned at that point and answered ssp.callback_failed.
    options.hook = [](push::PushHookPoint point) {
      current_call().callback("hook", {{"point", push::push_hook_point_name(point)}});
    };
  }
  const Json& tables = callbacks.array("rowValidators");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const std::string table =
        wire::text_value(tables[i], wire::element_path(callbacks.path_of("rowValidators"), i));
    options.row_validators[table] = [](const push::RowValidation& op) {
      raise_verdict(ask_validator("validate_row", wire::row_validation_to_json(op)));
    };
  }
  if (callbacks.boolean("commitValidator")) {
    options.commit_validator = [](const push::CommitValidation& input) {
      const Readers::Registration registration(readers(), call_key(), input.read);
      raise_verdict(ask_validator("validate_commit", wire::commit_validation_to_json(input)));
    };
  }
  if (callbacks.boolean("notify")) {
    options.notify = [](const push::CommitNotification& notification) {
      current_call().callback("notify", wire::notification_to_json(notification));
    };
  }
  return options;
}

push::PushOptions push_options_of(const Fields& params) {
  push::PushOptions options = carried_push_options(params);
  options.max_operations_per_request = params.integer("maxOperationsPerRequest");
  return options;
}

Json run_push_request(const Fields& params, const push::PushOptions& options) {
  return run_push_request(params, options, *server_storage_of(params));
}

Json run_push_request(const Fields& params, const push::PushOptions& options,
                      storage::ServerStorage& storage) {
  const auto schema = push_schema_of(params);
  const push::PushActor actor =
      wire::push_actor_from_json(params.at("actor"), params.path_of("actor"));
  const push::PushCommit commit =
      wire::push_commit_from_json(params.at("commit"), params.path_of("commit"));
  try {
    return wire::push_answer_to_json(push::run_push(storage, *schema, actor, commit, options));
  } catch (const push::PushAbandoned& abandoned) {
    std::rethrow_if_nested(abandoned);
    throw;
  }
}

namespace {

Json push_run(const Fields& params) { return run_push_request(params, push_options_of(params)); }

Json push_read_row(const Fields& params) {
  return wire::row_answer_to_json(
      readers().of(params).get_row(params.text("table"), params.text("rowId")));
}

Json push_scan_rows(const Fields& params) {
  return Json{{"rows", wire::stored_rows_to_json(
                          readers().of(params).scan_rows(wire::row_scan_from_fields(params)))}};
}

}  // namespace

void add_push_methods(MethodTable& table) {
  table["push.run"] = push_run;
  table["push.read_row"] = push_read_row;
  table["push.scan_rows"] = push_scan_rows;
}

}  // namespace ssp::driver
