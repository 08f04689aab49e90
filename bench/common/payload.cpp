#include "payload.hpp"

#include <openssl/evp.h>

#include <cstring>
#include <stdexcept>

namespace ssp::bench {

std::uint32_t Mulberry32::next() {
  state_ += 0x6D2B79F5u;
  std::uint32_t z = state_;
  z = (z ^ (z >> 15)) * (z | 1u);
  z ^= z + (z ^ (z >> 7)) * (z | 61u);
  return z ^ (z >> 14);
}

PayloadStream::PayloadStream(std::size_t size, std::uint32_t seed) : bytes_(size) {
  if (size < sizeof(std::uint64_t)) throw std::invalid_argument("PayloadStream: size below 8");
  Mulberry32 random(seed ^ static_cast<std::uint32_t>(size));
  std::size_t i = 0;
  for (; i + 4 <= size; i += 4) {
    const std::uint32_t word = random.next();
    std::memcpy(bytes_.data() + i, &word, 4);
  }
  for (; i < size; ++i) bytes_[i] = static_cast<std::uint8_t>(random.next());
}

std::span<const std::uint8_t> PayloadStream::stamped(std::uint64_t stamp) {
  std::memcpy(bytes_.data(), &stamp, sizeof stamp);
  return bytes_;
}

std::uint64_t payload_stamp(StampRole role, int thread, std::uint64_t index) {
  return (static_cast<std::uint64_t>(role) << 56) | (static_cast<std::uint64_t>(thread) << 40) |
         index;
}

SegmentMetadata bench_metadata(std::string scope_digest) {
  SegmentMetadata metadata;
  metadata.partition = "bench";
  metadata.log_epoch = "epoch-1";
  metadata.table = "items";
  metadata.schema_version = 1;
  metadata.media_type = MediaType::rows;
  metadata.scope_digest = std::move(scope_digest);
  metadata.as_of_commit_seq = 1;
  metadata.row_count = 100;
  return metadata;
}

std::string scope_digest_for(std::string_view role, std::uint64_t index) {
  std::uint64_t state = 0xcbf29ce484222325u;  // FNV-1a of the role, then the index mixed in
  for (const char c : role) state = (state ^ static_cast<unsigned char>(c)) * 0x100000001b3u;
  state ^= index;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string digest;
  digest.reserve(64);
  for (int word = 0; word < 4; ++word) {
    // splitmix64
    state += 0x9e3779b97f4a7c15u;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    for (int shift = 60; shift >= 0; shift -= 4) digest.push_back(kHex[(z >> shift) & 0xf]);
  }
  return digest;
}

SegmentFindKey bench_find_key(std::string scope_digest) {
  return find_key_of(bench_metadata(std::move(scope_digest)));
}

std::array<std::uint8_t, 32> openssl_sha256(std::span<const std::uint8_t> bytes) {
  std::array<std::uint8_t, 32> digest{};
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest.data(), &length, EVP_sha256(), nullptr) !=
      1) {
    throw std::runtime_error("openssl_sha256: EVP_Digest failed");
  }
  return digest;
}

std::uint64_t checksum_bits(std::string_view segment_id) {
  return std::stoull(std::string(segment_id.substr(7, 12)), nullptr, 16);
}

std::uint64_t checksum_bits(const std::array<std::uint8_t, 32>& digest) {
  std::uint64_t bits = 0;
  for (int i = 0; i < 6; ++i) bits = (bits << 8) | digest[static_cast<std::size_t>(i)];
  return bits;
}

}  // namespace ssp::bench
