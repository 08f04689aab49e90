#include "ssp/encoding/utf16_order.hpp"

#include <cstdint>

namespace ssp {
namespace {

// The code point starting at text[i] (well-formed UTF-8); advances i past it.
std::uint32_t next_code_point(std::string_view text, std::size_t& i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  std::size_t length = 1;
  std::uint32_t code_point = lead;
  if (lead >= 0xf0) {
    length = 4;
    code_point = lead & 0x07;
  } else if (lead >= 0xe0) {
    length = 3;
    code_point = lead & 0x0f;
  } else if (lead >= 0xc0) {
    length = 2;
    code_point = lead & 0x1f;
  }
  for (std::size_t k = 1; k < length; ++k) {
    code_point = (code_point << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3f);
  }
  i += length;
  return code_point;
}

// A rank whose numeric order is the UTF-16 order of single code points. Two
// code points first differ in their first code unit unless both are
// supplementary with the same lead surrogate, and then the trail surrogate
// orders them like their code points. So only U+E000–U+FFFF move: above every
// supplementary code point, whose lead units 0xD800–0xDBFF are smaller.
std::uint32_t utf16_rank(std::uint32_t code_point) {
  return code_point >= 0xe000 && code_point <= 0xffff ? code_point + 0x110000 : code_point;
}

}  // namespace

int compare_utf16(std::string_view a, std::string_view b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const std::uint32_t x = utf16_rank(next_code_point(a, i));
    const std::uint32_t y = utf16_rank(next_code_point(b, j));
    if (x != y) return x < y ? -1 : 1;
  }
  // One is a prefix of the other in code points, hence in code units too.
  if (i < a.size()) return 1;
  if (j < b.size()) return -1;
  return 0;
}

}  // namespace ssp
