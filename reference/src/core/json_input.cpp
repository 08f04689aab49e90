#include "ssp/json_input.hpp"

namespace ssp {

template <typename Json>
Json parse_json_input(std::string_view text, const typename Json::parser_callback_t& callback) {
  // U+FEFF in UTF-8. Only a leading one needs a check: nlohmann refuses it
  // anywhere else, after whitespace included.
  static constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (text.starts_with(kByteOrderMark)) {
    throw JsonSyntaxError("a byte-order mark (U+FEFF) precedes the value");
  }
  try {
    return Json::parse(text.begin(), text.end(), callback);
  } catch (const typename Json::parse_error& error) {
    throw JsonSyntaxError(error.what());
  }
}

template nlohmann::json parse_json_input<nlohmann::json>(std::string_view,
                                                         const nlohmann::json::parser_callback_t&);
template nlohmann::ordered_json parse_json_input<nlohmann::ordered_json>(
    std::string_view, const nlohmann::ordered_json::parser_callback_t&);

}  // namespace ssp
