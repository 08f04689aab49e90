#include "error_answer.hpp"

#include "connection.hpp"

#include "ssp/errors/errors.hpp"
#include "ssp/push/push_pipeline.hpp"
#include "ssp/push/remote_command.hpp"
#include "ssp/scopes/scope_map.hpp"
#include "ssp/storage/push_result.hpp"
#include "ssp/storage/push_transaction.hpp"
#include "ssp/storage/storage_errors.hpp"
#include "wire/error_codes.hpp"

namespace ssp::driver {
namespace {

wire::Json answer(std::string_view code, const std::exception& error,
                  wire::Json data = wire::Json()) {
  wire::Json out{{"code", code}, {"message", error.what()}};
  if (!data.is_null()) out["data"] = std::move(data);
  return out;
}

wire::Json optional_text(const std::optional<std::string>& text) {
  return text ? wire::Json(*text) : wire::Json();
}

}  // namespace

// Most derived first: SchemaError, RowDecodeError, InvalidScopeMap and
// StorageQueryError are InvalidArguments with codes of their own.
wire::Json error_answer(const std::exception_ptr& error) {
  namespace code = wire::code;
  try {
    std::rethrow_exception(error);
  } catch (const SegmentCollision& e) {
    return answer(code::segment_collision, e, {{"segmentId", e.segment_id()}});
  } catch (const ReadOnlyStore& e) {
    return answer(code::read_only, e);
  } catch (const StorageError& e) {
    return answer(code::storage_error, e);
  } catch (const storage::StorageQueryError& e) {
    return answer(code::storage_query_error, e, {{"code", e.code()}});
  } catch (const push::PushRequestError& e) {
    return answer(code::push_request_refused, e, {{"code", e.code()}});
  } catch (const push::OperationError& e) {
    return answer(code::operation_refused, e, {{"code", e.code()}});
  } catch (const push::IdempotencyCacheMiss& e) {
    return answer(code::idempotency_cache_miss, e);
  } catch (const storage::StorageConstraintError& e) {
    return answer(code::constraint_violation, e, {{"opIndex", e.op_index()}});
  } catch (const storage::SchemaError& e) {
    return answer(code::schema_error, e);
  } catch (const storage::RowDecodeError& e) {
    return answer(code::row_decode_error, e, {{"column", optional_text(e.column())}});
  } catch (const InvalidScopeMap& e) {
    return answer(code::invalid_scope_map, e);
  } catch (const InvalidArgument& e) {
    return answer(code::invalid_argument, e);
  } catch (const storage::SchemaRefusal& e) {
    wire::Json data{{"reason", storage::refusal_reason_name(e.reason())}};
    if (e.table()) data["table"] = *e.table();
    if (e.column()) data["column"] = optional_text(e.column());
    return answer(code::schema_refusal, e, std::move(data));
  } catch (const storage::UnknownTable& e) {
    return answer(code::unknown_table, e, {{"table", e.table()}});
  } catch (const CallbackRefused& e) {
    // The harness's function failed (docs/driver-protocol.md, "Callbacks"):
    // the call was abandoned there, and the harness raises the original.
    return answer(code::callback_failed, e);
  } catch (const wire::WireError& e) {
    return answer(code::bad_request, e);
  } catch (const Unsupported& e) {
    return answer(code::unsupported, e);
  } catch (const InvalidResult& e) {
    return answer(code::invalid_result, e, {{"raw", e.raw()}});
  } catch (const std::exception& e) {
    return answer(code::internal, e);
  } catch (...) {
    return {{"code", code::internal}, {"message", "an exception that is not a std::exception"}};
  }
}

}  // namespace ssp::driver
