// Canonical scope JSON and the scope digest (SSP2 §3.5, §11.2): what binds a
// segment publication to the effective scopes it was built for.
#pragma once

#include <string>

#include "ssp/scopes/scope_map.hpp"

namespace ssp {

// The §11.2 canonical rendering of `scopes`: keys sorted by UTF-16 code units,
// each value list de-duplicated and sorted the same way, strings escaped as
// JSON.stringify escapes them, no whitespace. {"b":["y","x","x"],"a":["1"]}
// renders as {"a":["1"],"b":["x","y"]}; an empty map as {}.
// Throws InvalidScopeMap naming the key when a string is not well-formed UTF-8.
std::string canonical_scope_json(const ScopeMap& scopes);

// Lowercase hex SHA-256 of the UTF-8 bytes of canonical_scope_json(scopes),
// e.g. {"project_id":["p1"]} → 46cf18d6…1414f6. Equal scope sets (any order,
// any duplicates) give equal digests.
std::string scope_digest(const ScopeMap& scopes);

// What `ssp-segments scope-digest SCOPES_JSON` prints: one JSON object
// {"canonicalJson":"<canonical text>","scopeDigest":"<hex>"}.
std::string scope_digest_report_json(const ScopeMap& scopes);

}  // namespace ssp
