// The safe-integer bound of the SSP2 conventions: every integer SSP2 carries
// (a version, a sequence number, a count, a time) is within ±(2^53 − 1), the
// integers JSON's readers in ECMAScript hold exactly.
#pragma once

#include <cstdint>

namespace ssp {

inline constexpr std::int64_t kMaxSafeInteger = (std::int64_t{1} << 53) - 1;

constexpr bool is_safe_integer(std::int64_t value) {
  return value >= -kMaxSafeInteger && value <= kMaxSafeInteger;
}

}  // namespace ssp
