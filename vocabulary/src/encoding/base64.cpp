#include "ssp/encoding/base64.hpp"

#include <algorithm>

#include "ssp/encoding/base64url.hpp"

namespace ssp {

// Written over the reference's canonical base64url: the alphabets differ in
// two characters and the padding only.
std::string base64_encode(std::span<const std::uint8_t> bytes) {
  std::string text = base64url_encode(bytes);
  std::replace(text.begin(), text.end(), '-', '+');
  std::replace(text.begin(), text.end(), '_', '/');
  text.append((4 - text.size() % 4) % 4, '=');
  return text;
}

std::optional<Bytes> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  const std::size_t unpadded = text.find_last_not_of('=') + 1;  // npos + 1 == 0
  if (text.size() - unpadded > 2) return std::nullopt;
  std::string url(text.substr(0, unpadded));
  for (char& c : url) {
    if (c == '-' || c == '_') return std::nullopt;
    if (c == '+') c = '-';
    if (c == '/') c = '_';
  }
  std::optional<Bytes> bytes = base64url_decode(url);
  // Padding must be exactly what the length calls for.
  if (bytes && base64_encode(*bytes) != text) return std::nullopt;
  return bytes;
}

}  // namespace ssp
