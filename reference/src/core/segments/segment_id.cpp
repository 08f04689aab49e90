#include "ssp/segments/segment_id.hpp"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace ssp {

std::string sha256_segment_id(std::span<const std::uint8_t> bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int digest_length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &digest_length, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("sha256_segment_id: OpenSSL EVP_Digest failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id = "sha256:";
  id.reserve(7 + 2 * digest_length);
  for (unsigned int i = 0; i < digest_length; ++i) {
    id.push_back(kHex[digest[i] >> 4]);
    id.push_back(kHex[digest[i] & 0x0f]);
  }
  return id;
}

bool is_well_formed_segment_id(std::string_view id) {
  constexpr std::string_view kPrefix = "sha256:";
  if (id.size() != kPrefix.size() + 64 || !id.starts_with(kPrefix)) return false;
  for (char c : id.substr(kPrefix.size())) {
    const bool hex_digit = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    if (!hex_digit) return false;
  }
  return true;
}

}  // namespace ssp
