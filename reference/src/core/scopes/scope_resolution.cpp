#include "ssp/scopes/effective_scopes.hpp"
#include "ssp/scopes/scope_resolution.hpp"

#include <algorithm>

namespace ssp {
namespace {

constexpr std::string_view kAnyValue = "*";

bool contains(const std::vector<std::string>& values, std::string_view value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

EffectiveScopes revoked(std::string because) {
  return EffectiveScopes{ScopeStatus::revoked, {}, std::move(because)};
}

}  // namespace

EffectiveScopes compute_effective(const ScopeMap& requested, const ScopeMap& allowed) {
  if (requested.empty()) return revoked("no scopes were requested");
  ScopeMap effective;
  for (const auto& [key, wanted] : requested) {
    const auto grant = allowed.find(key);
    if (grant == allowed.end()) return revoked("requested key '" + key + "' is not allowed");
    std::vector<std::string> kept;
    for (const auto& value : wanted) {
      if (contains(grant->second, kAnyValue) || contains(grant->second, value)) {
        kept.push_back(value);
      }
    }
    // A requested key never survives with an empty list: partial scope loss
    // must not silently deliver a subset the client did not ask to trust.
    if (kept.empty()) return revoked("no requested value of key '" + key + "' is allowed");
    effective.emplace(key, std::move(kept));
  }
  return EffectiveScopes{ScopeStatus::active, std::move(effective), {}};
}

}  // namespace ssp
