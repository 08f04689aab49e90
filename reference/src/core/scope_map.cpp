#include "ssp/scope_map.hpp"

#include <nlohmann/json.hpp>

namespace ssp {

ScopeMap parse_scope_map(std::string_view json_text) {
  // allow_exceptions = false: malformed text (including invalid UTF-8 and lone
  // surrogate escapes, which nlohmann refuses) comes back as a discarded value.
  const nlohmann::json parsed =
      nlohmann::json::parse(json_text.begin(), json_text.end(), nullptr, false);
  if (parsed.is_discarded()) throw InvalidScopeMap("scope map is not valid JSON");
  if (!parsed.is_object()) throw InvalidScopeMap("scope map is not a JSON object");
  ScopeMap scopes;
  for (const auto& [key, values] : parsed.items()) {
    if (!values.is_array()) {
      throw InvalidScopeMap("scope map value of key '" + key + "' is not a list");
    }
    std::vector<std::string>& list = scopes[key];
    for (const auto& value : values) {
      if (!value.is_string()) {
        throw InvalidScopeMap("scope map list of key '" + key + "' holds a non-string value");
      }
      list.push_back(value.get<std::string>());
    }
  }
  return scopes;
}

}  // namespace ssp
