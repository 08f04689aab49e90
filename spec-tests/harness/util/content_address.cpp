#include "harness/util/content_address.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace ssp::harness {

std::string sha256_content_address(std::span<const std::uint8_t> bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("sha256_content_address: OpenSSL SHA-256 failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id = "sha256:";
  for (unsigned int i = 0; i < length; ++i) {
    id.push_back(kHex[digest[i] >> 4]);
    id.push_back(kHex[digest[i] & 0x0f]);
  }
  return id;
}

}  // namespace ssp::harness
