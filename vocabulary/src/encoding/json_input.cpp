#include "ssp/encoding/json_input.hpp"

#include <string>

namespace ssp {
namespace {

// The library's message without its "[json.exception.<kind>.<n>] " prefix,
// with every byte outside printable ASCII written \xNN (the message quotes
// the text it stopped at, which may be anything) and cut at
// kMaxJsonSyntaxMessage bytes (that quote may be megabytes long).
std::string plain_message(std::string_view what) {
  if (what.starts_with("[json.exception.")) {
    const auto end = what.find("] ");
    if (end != std::string_view::npos) what.remove_prefix(end + 2);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char c : what) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out.push_back(c);
    } else {
      out += "\\x";
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0xf]);
    }
    if (out.size() >= kMaxJsonSyntaxMessage - 3) {
      out.resize(kMaxJsonSyntaxMessage - 3);
      out += "...";
      break;
    }
  }
  return out;
}

// Whether arrays and objects in `text` nest deeper than kMaxJsonInputDepth,
// brackets inside strings aside. Syntax is the parser's business: this only
// has to be right for text that parses.
bool nests_too_deep(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonInputDepth) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

}  // namespace

template <typename Json>
Json parse_json_input(std::string_view text, const typename Json::parser_callback_t& callback) {
  // U+FEFF in UTF-8. Only a leading one needs a check: nlohmann refuses it
  // anywhere else, after whitespace included.
  static constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (text.starts_with(kByteOrderMark)) {
    throw JsonSyntaxError("a byte-order mark (U+FEFF) precedes the value");
  }
  // Checked before parsing: the parser itself copes, but destroying or
  // walking such a value recurses once per level.
  if (nests_too_deep(text)) {
    throw JsonSyntaxError("arrays or objects nested deeper than " +
                          std::to_string(kMaxJsonInputDepth) + " levels");
  }
  try {
    return Json::parse(text.begin(), text.end(), callback);
  } catch (const typename Json::exception& error) {
    // A parse_error, or out_of_range 406: a number outside binary64, which
    // JSON.parse reads as ±Infinity where every site wants a string or a
    // safe integer.
    throw JsonSyntaxError(plain_message(error.what()));
  }
}

template nlohmann::json parse_json_input<nlohmann::json>(std::string_view,
                                                         const nlohmann::json::parser_callback_t&);
template nlohmann::ordered_json parse_json_input<nlohmann::ordered_json>(
    std::string_view, const nlohmann::ordered_json::parser_callback_t&);

}  // namespace ssp
