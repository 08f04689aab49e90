// The X-Syncular-Scopes header's text read as a scope map (SSP2 §3.2).
#pragma once

#include <string_view>

#include "ssp/scopes/scope_map.hpp"

namespace ssp {

// Parses JSON text such as {"project_id":["p1","p2"]} (any whitespace, any key
// order; a repeated key keeps its last value, as JSON.parse does; a leading
// byte-order mark is refused, as JSON.parse refuses it: json_input.hpp).
// Every key is an ordinary key, "__proto__" and "constructor" included.
// Throws InvalidScopeMap otherwise. Never reads past `json_text`.
ScopeMap parse_scope_map(std::string_view json_text);

}  // namespace ssp
