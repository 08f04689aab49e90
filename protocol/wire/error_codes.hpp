// The error codes of the driver protocol (docs/driver-protocol.md, "Errors"),
// spelled once for the driver and the harness.
#pragma once

#include <string_view>

namespace ssp::wire::code {

// Refusals the contract defines; the harness raises the matching exception.
inline constexpr std::string_view invalid_argument = "ssp.invalid_argument";
inline constexpr std::string_view invalid_scope_map = "ssp.invalid_scope_map";
inline constexpr std::string_view segment_collision = "ssp.segment_collision";
inline constexpr std::string_view read_only = "ssp.read_only";
inline constexpr std::string_view storage_error = "ssp.storage_error";
inline constexpr std::string_view schema_error = "ssp.schema_error";
inline constexpr std::string_view row_decode_error = "ssp.row_decode_error";
inline constexpr std::string_view schema_refusal = "ssp.schema_refusal";
inline constexpr std::string_view unknown_table = "ssp.unknown_table";
// Version 2: the push path.
inline constexpr std::string_view push_request_refused = "ssp.push_request_refused";
inline constexpr std::string_view idempotency_cache_miss = "ssp.idempotency_cache_miss";
inline constexpr std::string_view constraint_violation = "ssp.constraint_violation";
inline constexpr std::string_view storage_query_error = "ssp.storage_query_error";
// Capability commands: a command request refused or failed (data: its operation.* code).
inline constexpr std::string_view operation_refused = "ssp.operation_refused";
// The implementation answered something the protocol cannot carry as the
// method's result (data: {"raw": its text}): the candidate's wrong answer, a
// failure of the test that asked, not a driver error.
inline constexpr std::string_view invalid_result = "ssp.invalid_result";

// The driver's own failures: always a driver error in the harness.
inline constexpr std::string_view unsupported = "ssp.unsupported";
inline constexpr std::string_view bad_request = "ssp.bad_request";
inline constexpr std::string_view internal = "ssp.internal";

// The harness's error answer to a callback: the test's function threw (for
// resolve_scopes: the host's resolver threw).
inline constexpr std::string_view callback_failed = "ssp.callback_failed";

}  // namespace ssp::wire::code
