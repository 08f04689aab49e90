// What the direct segment download decision (SSP2 §5.5 at 0.22) reads and
// answers: the served tables, the request and the outcome. The decision itself
// is the reference's (ssp/download/download_decision.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ssp/errors/protocol_error.hpp"
#include "ssp/scopes/scope_resolution.hpp"
#include "ssp/segments/segment_store.hpp"

namespace ssp {

// The tables the server serves now, each with the scope variables its
// patterns declare (§3.1). A publication of a table not listed is no longer
// served.
struct ServedTables {
  std::map<std::string, std::set<std::string>> declared_variables;

  bool serves(const std::string& table) const;
  bool declares(const std::string& table, const std::string& variable) const;
};

// A longer X-Syncular-Scopes header is refused with sync.invalid_request.
inline constexpr std::size_t kMaxScopesHeaderBytes = 64 * 1024;

struct SegmentDownloadRequest {
  std::string segment_id;     // from the URL path: untrusted, may be malformed
  std::string partition;      // from host authentication
  std::string log_epoch;      // the partition's current log epoch (§2.1)
  std::string actor_id;       // from host authentication, handed to the resolver
  std::string scopes_header;  // X-Syncular-Scopes text; "" when absent
  std::optional<std::string> if_none_match;
  std::int64_t now_ms = 0;
};

// Where the decision ended. Distinguishes outcomes that share a code.
enum class DownloadStep {
  served,                 // 200
  not_modified,           // 304: If-None-Match named the ETag
  unknown_segment,        // not_found: malformed or unknown id
  not_in_context,         // not_found: no publication in (partition, epoch)
  invalid_scopes_header,  // invalid_request: not JSON, not a map of string lists, too long
  scopes_not_held,        // forbidden: resolver threw, reported an outage, or revoked
  scope_digest_mismatch,  // forbidden: no in-context publication carries the digest
  expired,                // segment_expired: every such publication has expired
  table_not_served,       // not_found: no live such publication's table is served
  undeclared_scope_key,   // invalid_subscription: a key the table does not declare, or '*'
};
std::string_view download_step_name(DownloadStep step);

struct HttpHeader {
  std::string name;
  std::string value;
  friend bool operator==(const HttpHeader&, const HttpHeader&) = default;
};

struct SegmentDownloadOutcome {
  int http_status = 0;
  DownloadStep step = DownloadStep::unknown_segment;
  std::optional<ProtocolError> error;  // set iff http_status >= 400
  // 200: Content-Type, ETag, Cache-Control, Vary. 304: the same without Content-Type.
  std::vector<HttpHeader> headers;
  // 200 and 304: the record narrowed to the chosen (newest qualifying) publication.
  std::optional<SegmentRecord> record;
  Bytes bytes;  // 200 only: the stored bytes

  // Why, for operators: the publications in the caller's partition and epoch,
  // and the effective scopes and digest once they were computed.
  std::vector<SegmentPublication> in_context;
  std::optional<EffectiveScopes> effective;
  std::optional<std::string> effective_digest;

  // The value of header `name` (exact spelling), if present.
  std::optional<std::string> header(std::string_view name) const;
};

}  // namespace ssp
