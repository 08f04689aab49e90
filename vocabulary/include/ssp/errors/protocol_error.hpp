// A protocol error (§10.1): its catalog row and its message. The catalog's
// rows themselves are the reference's (ssp/errors/error_catalog.hpp).
#pragma once

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

// One protocol error as a server answers it: the fixed catalog row plus a
// human-readable message (never parsed by clients, §10.1).
struct ProtocolError {
  ErrorCatalogEntry entry;
  std::string message;

  std::string_view code() const { return entry.code; }
};

}  // namespace ssp
