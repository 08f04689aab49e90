#include "harness/errors/driver_error.hpp"

#include <functional>
#include <map>

#include "ssp/errors/errors.hpp"
#include "ssp/push/command_types.hpp"
#include "ssp/push/push_types.hpp"
#include "ssp/scopes/scope_map.hpp"
#include "ssp/storage/push_result.hpp"
#include "ssp/storage/push_transaction.hpp"
#include "ssp/storage/storage_errors.hpp"
#include "wire/error_codes.hpp"

namespace ssp::harness {
namespace {

// An exception of type Error whose what() is the driver's message verbatim,
// for types whose constructors compose their own text.
template <class Error>
class Relayed final : public Error {
 public:
  template <class... Args>
  explicit Relayed(std::string message, Args&&... args)
      : Error(std::forward<Args>(args)...), message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

std::optional<storage::RefusalReason> refusal_reason(const std::string& name) {
  using storage::RefusalReason;
  for (const auto reason :
       {RefusalReason::stored_newer, RefusalReason::layouts_disagree,
        RefusalReason::physical_mismatch, RefusalReason::layouts_unreadable,
        RefusalReason::not_append_only, RefusalReason::row_undecodable}) {
    if (storage::refusal_reason_name(reason) == name) return reason;
  }
  return std::nullopt;
}

std::optional<std::string> optional_text(const wire::Fields& data, std::string_view name) {
  return data.has(name) ? data.nullable_text(name) : std::nullopt;
}

// One thrower per contract code; `data` is the error's data object ({} if absent).
using Thrower = std::function<void(const std::string& message, const wire::Fields& data)>;

const std::map<std::string_view, Thrower>& throwers() {
  namespace code = wire::code;
  static const std::map<std::string_view, Thrower> table = {
      {code::invalid_argument, [](auto& m, auto&) { throw InvalidArgument(m); }},
      {code::invalid_scope_map, [](auto& m, auto&) { throw InvalidScopeMap(m); }},
      {code::read_only, [](auto& m, auto&) { throw ReadOnlyStore(m); }},
      {code::storage_error, [](auto& m, auto&) { throw StorageError(m); }},
      {code::schema_error, [](auto& m, auto&) { throw storage::SchemaError(m); }},
      {code::segment_collision,
       [](auto& m, const wire::Fields& d) {
         throw Relayed<SegmentCollision>(m, "", d.text("segmentId"));
       }},
      {code::row_decode_error,
       [](auto& m, const wire::Fields& d) {
         throw Relayed<storage::RowDecodeError>(m, d.nullable_text("column"), m);
       }},
      {code::push_request_refused,
       [](auto& m, auto& d) { throw push::PushRequestError(d.text("code"), m); }},
      {code::operation_refused,
       [](auto& m, auto& d) { throw push::OperationError(d.text("code"), m); }},
      {code::idempotency_cache_miss,
       [](auto& m, auto&) { throw Relayed<push::IdempotencyCacheMiss>(m); }},
      {code::constraint_violation,
       [](auto& m, auto& d) {
         throw Relayed<storage::StorageConstraintError>(m, d.integer("opIndex"));
       }},
      {code::storage_query_error,
       [](auto& m, auto& d) {
         throw Relayed<storage::StorageQueryError>(m, d.text("code"), std::string());
       }},
      {code::invalid_result,
       [](auto& m, const wire::Fields& d) {
         throw InvalidCandidateAnswer("the candidate answered a value that is not a valid "
                                      "result: " + m + " (its answer: " + d.text("raw") + ")");
       }},
      {code::unknown_table,
       [](auto& m, const wire::Fields& d) {
         throw Relayed<storage::UnknownTable>(m, d.text("table"));
       }},
      {code::schema_refusal,
       [](auto& m, const wire::Fields& d) {
         const auto reason = refusal_reason(d.text("reason"));
         if (!reason) throw wire::WireError(d.path_of("reason") + ": not a refusal reason");
         throw storage::SchemaRefusal(*reason, m, optional_text(d, "table"),
                                      optional_text(d, "column"));
       }},
  };
  return table;
}

}  // namespace

DriverError::DriverError(const std::string& method, const std::string& problem)
    : std::runtime_error(std::string(run_error_prefix(RunErrorKind::driver)) + method + ": " +
                         problem) {
  mark_running_test(RunErrorKind::driver, what());
}

void raise_error_answer(const std::string& method, const wire::Json& error) {
  std::string code;
  std::string message;
  try {
    const wire::Fields fields(error, "error");
    code = fields.text("code");
    message = fields.text("message");
    const auto thrower = throwers().find(code);
    if (thrower != throwers().end()) {
      const wire::Json none = wire::Json::object();
      thrower->second(message, wire::Fields(fields.has("data") ? fields.at("data") : none,
                                            "error.data"));
    }
  } catch (const wire::WireError& malformed) {
    throw DriverError(method, std::string("malformed error answer: ") + malformed.what());
  }
  throw DriverError(method, "the driver answered with error " + code + ": " + message);
}

}  // namespace ssp::harness
