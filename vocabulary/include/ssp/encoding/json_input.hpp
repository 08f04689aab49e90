// JSON text that reaches the reference from outside — the X-Syncular-Scopes
// header, an operator tool's argument, a schema file, a stored column, a
// signed-URL payload — is read as ECMAScript's JSON.parse reads it, so the
// reference accepts exactly the text upstream 0.22 accepts. Every such parse
// goes through parse_json_input; nlohmann::json::parse is called directly only
// on text the reference itself just wrote.
//
// Where nlohmann is more lenient than JSON.parse it is refused here: nlohmann
// skips one leading UTF-8 byte-order mark, JSON.parse refuses it (U+FEFF is
// not JSON whitespace). Where they differ otherwise the reference refuses
// while parsing (docs/decisions.md; fixtures/cases/edge_json/): lone
// surrogate escapes (a deviation: no UTF-8 form), numbers outside binary64
// (JSON.parse reads ±Infinity, which no site accepts) and nesting deeper
// than kMaxJsonInputDepth (JSON.parse reads it, no site accepts the arrays,
// and the reference's walks of a value would recurse per level).
#pragma once

#include <nlohmann/json.hpp>
#include <cstddef>
#include <string_view>

#include "ssp/errors/errors.hpp"

namespace ssp {

// Text that is not exactly one JSON value. The message says why, without a
// prefix: callers name what they were reading ("scope map is not valid JSON").
// It is printable ASCII of at most kMaxJsonSyntaxMessage bytes and never
// carries the JSON library's exception text ("[json.exception…"), so a
// caller may pass it on to a user or into an error body.
class JsonSyntaxError : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

// Arrays and objects nested deeper than this are refused. No site reads
// more than a few levels; every walk of a parsed value may then recurse.
inline constexpr int kMaxJsonInputDepth = 512;
inline constexpr std::size_t kMaxJsonSyntaxMessage = 240;

// Parses `text` as one JSON value (surrounding JSON whitespace allowed,
// nothing else), calling `callback` as nlohmann::json::parse does. Throws
// JsonSyntaxError, and nothing else the JSON library throws (a library
// exception thrown by `callback` becomes one too; any other passes through). Duplicate keys: the last one wins, as
// in JSON.parse. Json is nlohmann::json or nlohmann::ordered_json.
template <typename Json>
Json parse_json_input(std::string_view text,
                      const typename Json::parser_callback_t& callback = nullptr);

extern template nlohmann::json parse_json_input<nlohmann::json>(
    std::string_view, const nlohmann::json::parser_callback_t&);
extern template nlohmann::ordered_json parse_json_input<nlohmann::ordered_json>(
    std::string_view, const nlohmann::ordered_json::parser_callback_t&);

}  // namespace ssp
