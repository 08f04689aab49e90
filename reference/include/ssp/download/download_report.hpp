// Download decisions as JSON, and the logic behind `ssp-segments authorize`:
// what an operator runs to see why a client gets forbidden.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ssp/download/segment_download.hpp"

namespace ssp {

// One JSON object with upstream field names:
//   {"status":200|304|4xx,"step":"<download_step_name>",
//    "error":{§10.1 body}|null,
//    "headers":{"ETag":…,…},
//    "record":{narrowed record, see record_to_json}|null,
//    "bytesLength":N|null,                      (200 only)
//    "effectiveScopes":{canonical scope JSON}|null,
//    "scopeStatus":"active"|"revoked"|null,"revokedBecause":…|null,
//    "scopeDigest":"<digest of the effective scopes>"|null,
//    "inContext":[{publication, see publication_to_json},…]}
// The stored bytes themselves are never printed.
std::string download_decision_json(const SegmentDownloadOutcome& outcome);

// The arguments of `ssp-segments authorize ID --partition P --epoch E
// --scopes JSON --allowed JSON --now MS [--tables JSON] [--if-none-match TAG]`.
struct AuthorizeCommand {
  std::string segment_id;
  std::string partition;
  std::string log_epoch;
  std::string scopes_json;   // taken as the X-Syncular-Scopes header text
  std::string allowed_json;  // the fixed allowed-scope map the resolver returns
  std::int64_t now_ms = 0;
  // Served tables as {"table":["variable",…],…}. Without it the schema checks
  // of step 7 are skipped: every table of the segment's publications counts as
  // served and as declaring every requested key.
  std::optional<std::string> tables_json;
  std::optional<std::string> if_none_match;
};

// Runs the download decision for `command` against `store` and returns
// download_decision_json of the outcome. Throws InvalidScopeMap (naming the
// option) when --allowed or --tables is not a map of string lists; a bad
// --scopes is an outcome (invalid_request), exactly as a bad header would be.
std::string run_authorize_command(SegmentStore& store, const AuthorizeCommand& command);

}  // namespace ssp
