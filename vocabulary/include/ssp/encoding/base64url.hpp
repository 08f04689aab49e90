// base64url without padding (RFC 4648 §5), the encoding of §5.4 signed-URL
// tokens. Encoding goes through OpenSSL's base64 and swaps the alphabet.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ssp/values/bytes.hpp"

namespace ssp {

// base64url of `bytes`, '-' and '_' for '+' and '/', no '=' padding.
std::string base64url_encode(std::span<const std::uint8_t> bytes);

// The bytes `text` encodes, or nothing when `text` is not the canonical
// unpadded base64url form of some bytes (wrong alphabet, padding, a length of
// 1 mod 4, non-zero unused trailing bits). Canonical-only decoding means one
// byte string has exactly one token spelling.
std::optional<Bytes> base64url_decode(std::string_view text);

}  // namespace ssp
