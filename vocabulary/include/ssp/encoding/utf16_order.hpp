// String order by UTF-16 code units, the order of JavaScript's default sort
// and of §11.2 canonical JSON. It differs from UTF-8 byte order (and code
// point order) in one place: a supplementary-plane character (U+10000 and up,
// a surrogate pair starting 0xD800–0xDBFF) sorts BEFORE a BMP character in
// U+E000–U+FFFF, e.g. U+1F600 < U+E000.
#pragma once

#include <string_view>

namespace ssp {

// <0, 0 or >0 as `a` sorts before, equal to or after `b` when both are
// compared as sequences of UTF-16 code units. Precondition: both are
// well-formed UTF-8 (is_well_formed_utf8).
int compare_utf16(std::string_view a, std::string_view b);

// compare_utf16(a, b) < 0: a strict weak order usable with std::sort.
struct Utf16Less {
  bool operator()(std::string_view a, std::string_view b) const { return compare_utf16(a, b) < 0; }
};

}  // namespace ssp
