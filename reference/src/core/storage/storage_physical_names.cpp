#include "ssp/storage/physical_names.hpp"

namespace ssp::storage {
namespace {

// The next code point of well-formed UTF-8 at `at`, advancing past it.
std::uint32_t next_code_point(std::string_view text, std::size_t& at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  std::size_t length = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
  std::uint32_t code_point = length == 1   ? lead
                             : length == 2 ? lead & 0x1f
                             : length == 3 ? lead & 0x0f
                                           : lead & 0x07;
  for (std::size_t k = 1; k < length && at + k < text.size(); ++k) {
    code_point = (code_point << 6) | (static_cast<unsigned char>(text[at + k]) & 0x3f);
  }
  at += length;
  return code_point;
}

// A supplementary code point compares by its high surrogate (0xD800–0xDBFF),
// below U+E000–U+FFFF, which is where UTF-16 and UTF-8 orders part.
std::uint32_t first_code_unit(std::uint32_t code_point) {
  return code_point >= 0x10000 ? 0xd800 + ((code_point - 0x10000) >> 10) : code_point;
}
std::uint32_t second_code_unit(std::uint32_t code_point) {
  return 0xdc00 + ((code_point - 0x10000) & 0x3ff);
}

}  // namespace

std::string quote_identifier(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::uint64_t fnv1a64(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string physical_index_name(std::string_view declared) {
  std::string name = std::string(kOwnedIndexPrefix) + std::string(declared);
  if (name.size() <= kMaxIdentifierBytes) return name;
  static constexpr char kHex[] = "0123456789abcdef";
  const std::uint64_t hash = fnv1a64(declared);
  name = kOwnedIndexPrefix;
  for (int shift = 60; shift >= 0; shift -= 4) name.push_back(kHex[(hash >> shift) & 0xf]);
  return name;
}

bool utf16_less(std::string_view a, std::string_view b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const std::uint32_t x = next_code_point(a, i);
    const std::uint32_t y = next_code_point(b, j);
    if (x == y) continue;
    if (first_code_unit(x) != first_code_unit(y)) return first_code_unit(x) < first_code_unit(y);
    return second_code_unit(x) < second_code_unit(y);
  }
  return i >= a.size() && j < b.size();
}

}  // namespace ssp::storage
