// What the reference's JSON input rule (ssp/encoding/json_input.hpp) says of a text,
// for the self-tests of that rule and of its edge cases.
#pragma once

#include <string>
#include <string_view>

#include "ssp/encoding/json_input.hpp"

namespace ssp::harness {

// Why `text` is refused as a `Json` document, or "(accepted)".
template <typename Json>
std::string refusal_of(std::string_view text) {
  try {
    parse_json_input<Json>(text);
  } catch (const JsonSyntaxError& error) {
    return error.what();
  }
  return "(accepted)";
}

}  // namespace ssp::harness
