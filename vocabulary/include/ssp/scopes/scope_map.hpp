// Scope maps (SSP2 §3.2): variable → list of values. The same shape carries
// requested scopes (the X-Syncular-Scopes header), allowed scopes (what the
// host's resolver grants, '*' = any value) and effective scopes.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ssp/errors/errors.hpp"

namespace ssp {

// Keys are unique; value lists may hold duplicates and are in no particular
// order until canonical_scope_json renders them. Every string is well-formed
// UTF-8 (parse_scope_map guarantees it; canonical_scope_json checks it).
using ScopeMap = std::map<std::string, std::vector<std::string>>;

// A scope map refused as input: not JSON, not an object, a value that is not a
// list of strings, or a string that is not UTF-8. The message names the key.
class InvalidScopeMap : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

}  // namespace ssp
