// The one rule for a number read from JSON input where an integer is meant
// (a signed-URL claim, a schema version, a find key's fields): a JSON integer
// literal within ±(2^53−1), the JS safe-integer range of the Conventions'
// i64. Floats (42.0, 4.2e1) are refused rather than truncated: JSON.stringify
// never writes them for an integer. Numbers past 2^64 arrive here as floats
// and are refused; numbers outside binary64 never arrive (parse_json_input
// refuses them, where JSON.parse reads ±Infinity, which is no safe integer).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

namespace ssp {

// The value as an integer, or nullopt when it is not one within range.
// Json is nlohmann::json or nlohmann::ordered_json.
template <typename Json>
std::optional<std::int64_t> json_safe_integer(const Json& value);

extern template std::optional<std::int64_t> json_safe_integer<nlohmann::json>(
    const nlohmann::json&);
extern template std::optional<std::int64_t> json_safe_integer<nlohmann::ordered_json>(
    const nlohmann::ordered_json&);

}  // namespace ssp
