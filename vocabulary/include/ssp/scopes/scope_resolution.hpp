// Scope resolution (SSP2 §3.2 rules 3–6): the host's resolver, and the
// intersection of requested and allowed scopes that decides whether a
// subscription (or a segment download, §5.5) is active or revoked.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "ssp/scopes/scope_map.hpp"

namespace ssp {

// The host's resolveScopes: the allowed scopes of an actor across every table,
// variable → values, where '*' grants any value of that variable.
// resolve() may throw (an authorization bug must fence, not leak: callers
// treat a throw as revocation) and returns nullopt when the host reports an
// outage of its authority. Callers call it at most once per request.
class ScopeResolver {
 public:
  virtual ~ScopeResolver() = default;
  virtual std::optional<ScopeMap> resolve(const std::string& actor_id) = 0;
};

// Grants `allowed` to every actor: what `ssp-segments authorize --allowed`
// models, and the usual test resolver.
class FixedScopeResolver final : public ScopeResolver {
 public:
  explicit FixedScopeResolver(ScopeMap allowed) : allowed_(std::move(allowed)) {}
  std::optional<ScopeMap> resolve(const std::string&) override { return allowed_; }

 private:
  ScopeMap allowed_;
};

// Delegates to a host callback (which may throw or return nullopt for an outage).
class CallbackScopeResolver final : public ScopeResolver {
 public:
  using Callback = std::function<std::optional<ScopeMap>(const std::string& actor_id)>;
  explicit CallbackScopeResolver(Callback callback) : callback_(std::move(callback)) {}
  std::optional<ScopeMap> resolve(const std::string& actor_id) override {
    return callback_(actor_id);
  }

 private:
  Callback callback_;
};

enum class ScopeStatus { active, revoked };

// The outcome of computeEffective.
struct EffectiveScopes {
  ScopeStatus status = ScopeStatus::revoked;
  // Active: requested ∩ allowed, one entry per requested key, each non-empty.
  // Revoked: empty (§3.3 echoes an empty map).
  ScopeMap scopes;
  // Revoked: why, naming the key ("requested key 'k' is not allowed").
  std::string revoked_because;
};

}  // namespace ssp
