// JSON text that reaches the reference from outside — the X-Syncular-Scopes
// header, an operator tool's argument, a schema file, a stored column, a
// signed-URL payload — is read as ECMAScript's JSON.parse reads it, so the
// reference accepts exactly the text upstream 0.22 accepts. Every such parse
// goes through parse_json_input; nlohmann::json::parse is called directly only
// on text the reference itself just wrote.
//
// Where nlohmann is more lenient than JSON.parse it is refused here: nlohmann
// skips one leading UTF-8 byte-order mark, JSON.parse refuses it (U+FEFF is
// not JSON whitespace). nlohmann is stricter in one place, lone surrogate
// escapes, which the reference keeps refusing (docs/decisions.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "ssp/errors.hpp"

namespace ssp {

// Text that is not exactly one JSON value. The message says why, without a
// prefix: callers name what they were reading ("scope map is not valid JSON").
class JsonSyntaxError : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

// Parses `text` as one JSON value (surrounding JSON whitespace allowed,
// nothing else), calling `callback` as nlohmann::json::parse does. Throws
// JsonSyntaxError. Json is nlohmann::json or nlohmann::ordered_json.
template <typename Json>
Json parse_json_input(std::string_view text,
                      const typename Json::parser_callback_t& callback = nullptr);

extern template nlohmann::json parse_json_input<nlohmann::json>(
    std::string_view, const nlohmann::json::parser_callback_t&);
extern template nlohmann::ordered_json parse_json_input<nlohmann::ordered_json>(
    std::string_view, const nlohmann::ordered_json::parser_callback_t&);

}  // namespace ssp
