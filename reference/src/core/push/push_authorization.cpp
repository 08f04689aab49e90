// SSP2 §3.4 steps 2–3 (push_authorization.hpp).
#include "push_authorization.hpp"

#include <algorithm>
#include <variant>

namespace ssp::push {

std::optional<std::string> scope_value_of(const storage::RowValue& value) {
  if (const auto* text = std::get_if<std::string>(&value)) {
    if (text->empty()) return std::nullopt;
    return *text;
  }
  if (const auto* integer = std::get_if<std::int64_t>(&value)) return std::to_string(*integer);
  if (const auto* boolean = std::get_if<bool>(&value)) {
    return std::string(*boolean ? "true" : "false");
  }
  return std::nullopt;
}

std::optional<StoredScopes> extract_scopes(const storage::CompiledTable& table,
                                           const storage::Row& row) {
  StoredScopes scopes;
  for (const auto& binding : table.scopes) {
    const auto index = table.column_position(binding.column);
    if (!index || *index >= row.size()) return std::nullopt;
    auto value = scope_value_of(row[*index]);
    if (!value) return std::nullopt;
    scopes.emplace(binding.variable, std::move(*value));
  }
  return scopes;
}

bool scope_allowed(const ScopeMap& allowed, const std::string& variable,
                   const std::string& value) {
  const auto found = allowed.find(variable);
  if (found == allowed.end()) return false;
  const auto& values = found->second;
  return std::any_of(values.begin(), values.end(),
                     [&](const std::string& granted) { return granted == "*" || granted == value; });
}

bool scopes_authorized(const storage::CompiledTable& table, const StoredScopes& scopes,
                       const ScopeMap& allowed) {
  for (const auto& binding : table.scopes) {
    const auto found = scopes.find(binding.variable);
    if (found == scopes.end() || found->second.empty()) continue;
    if (!scope_allowed(allowed, binding.variable, found->second)) return false;
  }
  return true;
}

std::optional<std::string> first_missing_variable(const storage::CompiledTable& table,
                                                  const StoredScopes& scopes) {
  for (const auto& binding : table.scopes) {
    const auto found = scopes.find(binding.variable);
    if (found == scopes.end() || found->second.empty()) return binding.variable;
  }
  return std::nullopt;
}

}  // namespace ssp::push
