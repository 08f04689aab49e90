// scope.* (docs/driver-protocol.md, "scope"): canonical JSON and digest
// (§3.5, §11.2), scope-map parsing, effective scopes (§3.2).
#include "methods.hpp"
#include "ssp/scopes/scope_digest.hpp"
#include "ssp/scopes/scope_resolution.hpp"
#include "ssp/scopes/effective_scopes.hpp"
#include "ssp/scopes/parse_scope_map.hpp"
#include "wire/wire_values.hpp"

namespace ssp::driver {
namespace {

ScopeMap scopes_at(const Fields& params, std::string_view name) {
  return wire::scope_map_from_json(params.at(name), params.path_of(name));
}

Json scope_digest(const Fields& params) {
  const ScopeMap scopes = scopes_at(params, "scopes");
  return Json{{"canonicalJson", canonical_scope_json(scopes)},
              {"scopeDigest", ssp::scope_digest(scopes)}};
}

Json scope_parse(const Fields& params) {
  return Json{{"scopes", wire::scope_map_to_json(parse_scope_map(params.text("text")))}};
}

Json scope_effective(const Fields& params) {
  const EffectiveScopes result =
      compute_effective(scopes_at(params, "requested"), scopes_at(params, "allowed"));
  return Json{{"status", wire::scope_status_name(result.status)},
              {"scopes", wire::scope_map_to_json(result.scopes)},
              {"revokedBecause", result.revoked_because}};
}

}  // namespace

void add_scope_methods(MethodTable& table) {
  table["scope.digest"] = scope_digest;
  table["scope.parse"] = scope_parse;
  table["scope.effective"] = scope_effective;
}

}  // namespace ssp::driver
