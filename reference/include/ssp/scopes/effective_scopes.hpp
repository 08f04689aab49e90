// The intersection of requested and allowed scopes (SSP2 §3.2 rules 4–5).
#pragma once

#include "ssp/scopes/scope_map.hpp"
#include "ssp/scopes/scope_resolution.hpp"

namespace ssp {

// §3.2 rules 4–5 for a resolver that answered. For each requested key: absent
// from `allowed` → dropped; allowed values contain '*' → the requested values
// pass through; otherwise the requested values also in `allowed` (requested
// order and duplicates kept; canonical_scope_json normalizes). The result is
// revoked when a requested key was dropped or nothing remains (an empty
// request included). Keys only in `allowed` never enter. Pure; never throws.
EffectiveScopes compute_effective(const ScopeMap& requested, const ScopeMap& allowed);

}  // namespace ssp
