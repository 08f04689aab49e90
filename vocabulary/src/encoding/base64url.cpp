#include "ssp/encoding/base64url.hpp"

#include <openssl/evp.h>

#include <algorithm>

namespace ssp {

std::string base64url_encode(std::span<const std::uint8_t> bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3), '\0');
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes.data(),
                                      static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(written));
  while (!out.empty() && out.back() == '=') out.pop_back();
  std::replace(out.begin(), out.end(), '+', '-');
  std::replace(out.begin(), out.end(), '/', '_');
  return out;
}

std::optional<Bytes> base64url_decode(std::string_view text) {
  if (text.size() % 4 == 1) return std::nullopt;
  std::string standard;
  standard.reserve(text.size() + 3);
  for (char c : text) {
    const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (plain) {
      standard.push_back(c);
    } else if (c == '-') {
      standard.push_back('+');
    } else if (c == '_') {
      standard.push_back('/');
    } else {
      return std::nullopt;
    }
  }
  const std::size_t padding = (4 - standard.size() % 4) % 4;
  standard.append(padding, '=');
  Bytes bytes(standard.size() / 4 * 3);
  const int decoded = EVP_DecodeBlock(bytes.data(),
                                      reinterpret_cast<const unsigned char*>(standard.data()),
                                      static_cast<int>(standard.size()));
  if (decoded < 0) return std::nullopt;
  // EVP_DecodeBlock counts the bytes the padding stands for; drop them.
  bytes.resize(static_cast<std::size_t>(decoded) - padding);
  // Unused trailing bits must be zero: re-encoding must give the same text.
  if (base64url_encode(bytes) != text) return std::nullopt;
  return bytes;
}

}  // namespace ssp
