// Standard base64 with padding (RFC 4648 §4): how bytes travel in the driver
// protocol (docs/driver-protocol.md, "Values") and how stored push results
// carry a conflicting row (push_result.hpp).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ssp/values/bytes.hpp"

namespace ssp {

// '+' and '/', '=' padding to a multiple of four characters.
std::string base64_encode(std::span<const std::uint8_t> bytes);

// The bytes `text` encodes, or nothing unless `text` is the canonical padded
// form of some bytes (so one byte string has exactly one spelling).
std::optional<Bytes> base64_decode(std::string_view text);

}  // namespace ssp
