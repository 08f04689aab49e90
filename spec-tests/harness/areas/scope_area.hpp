// The candidate's scope rules (SSP2 §3.2, §3.5, §11.2): canonical scope JSON
// and digest, scope-map parsing, effective scopes. No store, no database.
#pragma once

#include <string>
#include <string_view>

#include "ssp/scopes/scope_map.hpp"
#include "ssp/scopes/scope_resolution.hpp"

namespace ssp::harness {

// A scope set's §11.2 canonical text and its §3.5 digest (lowercase hex).
struct ScopeDigestAnswer {
  std::string canonical_json;
  std::string scope_digest;
};

class ScopeArea {
 public:
  virtual ~ScopeArea() = default;

  // The canonical text and digest of `scopes`. Throws InvalidScopeMap naming
  // the key when a string is not well-formed UTF-8.
  virtual ScopeDigestAnswer digest(const ScopeMap& scopes) = 0;

  // Parses JSON text as a client sends it in X-Syncular-Scopes. Throws
  // InvalidScopeMap naming the key (or saying what the text is) otherwise.
  virtual ScopeMap parse(std::string_view text) = 0;

  // §3.2 rules 4–5: what a request keeps of what the actor is allowed.
  virtual EffectiveScopes effective(const ScopeMap& requested, const ScopeMap& allowed) = 0;
};

}  // namespace ssp::harness
