#include "ssp/scopes/scope_map.hpp"

#include "ssp/encoding/json_input.hpp"
#include "ssp/scopes/parse_scope_map.hpp"

namespace ssp {

ScopeMap parse_scope_map(std::string_view json_text) {
  // Malformed text includes invalid UTF-8, lone surrogate escapes and a
  // leading byte-order mark. The parser's own message is not repeated: it
  // would end up in a §10.1 error body.
  nlohmann::json parsed;
  try {
    parsed = parse_json_input<nlohmann::json>(json_text);
  } catch (const JsonSyntaxError&) {
    throw InvalidScopeMap("scope map is not valid JSON");
  }
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
