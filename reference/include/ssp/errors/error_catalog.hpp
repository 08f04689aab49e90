// The SSP2 protocol error catalog (§10.1 shape, §10.2 codes): one table, used
// by every path that answers with a protocol error. Clients may hard-code a
// code's category, retryability and recommended action, so they live here
// once and nowhere else.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace ssp {

// One row of §10.2, plus the HTTP status an HTTP binding answers with.
struct ErrorCatalogEntry {
  std::string_view code;                // e.g. "sync.segment_expired"
  std::string_view category;            // e.g. "not-found"
  bool retryable = false;               // may the same request succeed later?
  std::string_view recommended_action;  // §10.1 verb, e.g. "retryLater"
  int http_status = 0;
};

// Codes the segment paths emit (§5.4, §5.5), spelled once.
namespace error_code {
inline constexpr std::string_view not_found = "sync.not_found";
inline constexpr std::string_view segment_expired = "sync.segment_expired";
inline constexpr std::string_view forbidden = "sync.forbidden";
inline constexpr std::string_view invalid_request = "sync.invalid_request";
inline constexpr std::string_view invalid_subscription = "sync.invalid_subscription";
}  // namespace error_code

// Every §10.2 code, in the order of the SPEC table. The catalog is closed.
std::span<const ErrorCatalogEntry> error_catalog();

// The entry for `code`. Throws InvalidArgument naming the code when it is not
// in the catalog: a producer never invents codes.
const ErrorCatalogEntry& error_entry(std::string_view code);

// One protocol error as a server answers it: the fixed catalog row plus a
// human-readable message (never parsed by clients, §10.1).
struct ProtocolError {
  ErrorCatalogEntry entry;
  std::string message;

  std::string_view code() const { return entry.code; }
};

// A ProtocolError for `code` (must be in the catalog, see error_entry).
ProtocolError protocol_error(std::string_view code, std::string message);

// The §10.1 JSON body: {"code","category","retryable","recommendedAction","message"}.
std::string error_body_json(const ProtocolError& error);

}  // namespace ssp
