// JSON text exactly as ECMAScript JSON.stringify writes it, for the values the
// pure rules serialize (publication keys §1.5 of the design notes, canonical
// scope JSON §11.2). Byte-identical output matters: keys written by the
// upstream TypeScript server must equal ours.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ssp {

// True iff `text` is well-formed UTF-8 (no overlongs, no surrogates, ≤ U+10FFFF).
bool is_well_formed_utf8(std::string_view text);

// Appends `utf8` as a JSON string literal: `"` and `\` escaped, \b \f \n \r \t,
// other code points below U+0020 as lowercase \u00xx, everything else raw
// (U+2028/U+2029 included). Precondition: well-formed UTF-8.
void append_json_string(std::string& out, std::string_view utf8);

// `name` (a table, column, scope or index name) as a JSON string literal, for
// an error message to name it; a name that is not well-formed UTF-8 reads
// "<not UTF-8>", so that a message never carries broken text.
std::string quoted_name(std::string_view name);

// Appends an integer in plain decimal, as JSON.stringify writes a safe integer.
void append_json_integer(std::string& out, std::int64_t value);

}  // namespace ssp
