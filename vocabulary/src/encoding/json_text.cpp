#include "ssp/encoding/json_text.hpp"

namespace ssp {

bool is_well_formed_utf8(std::string_view text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const auto lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    std::uint32_t code_point = 0;
    if ((lead & 0xe0) == 0xc0) {
      length = 2;
      code_point = lead & 0x1f;
    } else if ((lead & 0xf0) == 0xe0) {
      length = 3;
      code_point = lead & 0x0f;
    } else if ((lead & 0xf8) == 0xf0) {
      length = 4;
      code_point = lead & 0x07;
    } else {
      return false;
    }
    if (i + length > n) return false;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xc0) != 0x80) return false;
      code_point = (code_point << 6) | (next & 0x3f);
    }
    static constexpr std::uint32_t kSmallestOfLength[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code_point < kSmallestOfLength[length]) return false;          // overlong
    if (code_point >= 0xd800 && code_point <= 0xdfff) return false;    // surrogate
    if (code_point > 0x10ffff) return false;
    i += length;
  }
  return true;
}

void append_json_string(std::string& out, std::string_view utf8) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (char c : utf8) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (byte < 0x20) {
          out += "\\u00";
          out.push_back(kHex[byte >> 4]);
          out.push_back(kHex[byte & 0x0f]);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

std::string quoted_name(std::string_view name) {
  std::string out;
  append_json_string(out, is_well_formed_utf8(name) ? name : std::string_view("<not UTF-8>"));
  return out;
}

void append_json_integer(std::string& out, std::int64_t value) { out += std::to_string(value); }

}  // namespace ssp
