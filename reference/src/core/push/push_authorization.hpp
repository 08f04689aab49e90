// SSP2 §3.4 write-path authorization over the schema's scope bindings
// (CompiledTable::scopes) and the actor's allowed scopes ('*' = any value).
// Private to the push pipeline.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "ssp/scopes/scope_map.hpp"
#include "ssp/storage/row_codec.hpp"
#include "ssp/storage/schema.hpp"

namespace ssp::push {

using StoredScopes = std::map<std::string, std::string>;

// A column value as a scope value (§3.1: a single string): strings as they
// are, integers in decimal, booleans as true/false. Nothing for NULL, an
// empty string and every other type: a scope column holding one of those
// has no value, which §3.4 step 2 treats as missing.
std::optional<std::string> scope_value_of(const storage::RowValue& value);

// The stored scopes of a decoded row of `table`, one entry per declared
// variable; nothing when a variable's column has no value (§3.4 step 2: deny).
std::optional<StoredScopes> extract_scopes(const storage::CompiledTable& table,
                                           const storage::Row& row);

// Whether `allowed` grants `value` of `variable`: the variable is present and
// its values contain `value` or '*' (§3.4 step 3).
bool scope_allowed(const ScopeMap& allowed, const std::string& variable, const std::string& value);

// §3.4 step 3 over every declared variable of `table` that `scopes` holds a
// non-empty value for. A declared variable `scopes` lacks is not decided
// here: the caller denies it (first_missing_variable, §3.4 step 2).
bool scopes_authorized(const storage::CompiledTable& table, const StoredScopes& scopes,
                       const ScopeMap& allowed);

// The first declared variable of `table` (declaration order) that `scopes`
// lacks or holds empty, or nothing when every one is there.
std::optional<std::string> first_missing_variable(const storage::CompiledTable& table,
                                                  const StoredScopes& scopes);

}  // namespace ssp::push
