#include "ssp/encoding/json_safe_integer.hpp"

#include "ssp/values/safe_integer.hpp"

namespace ssp {

template <typename Json>
std::optional<std::int64_t> json_safe_integer(const Json& value) {
  if (value.is_number_unsigned()) {
    // Compared unsigned: above 2^63 a conversion to int64 would wrap.
    const auto number = value.template get<std::uint64_t>();
    if (number > static_cast<std::uint64_t>(kMaxSafeInteger)) return std::nullopt;
    return static_cast<std::int64_t>(number);
  }
  if (!value.is_number_integer()) return std::nullopt;
  const auto number = value.template get<std::int64_t>();
  if (!is_safe_integer(number)) return std::nullopt;
  return number;
}

template std::optional<std::int64_t> json_safe_integer<nlohmann::json>(const nlohmann::json&);
template std::optional<std::int64_t> json_safe_integer<nlohmann::ordered_json>(
    const nlohmann::ordered_json&);

}  // namespace ssp
