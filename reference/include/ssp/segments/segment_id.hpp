// Content addressing (SSP2 §5.1): segmentId = "sha256:" + lowercase hex SHA-256
// of the exact, uncompressed bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace ssp {

// "sha256:" + 64 lowercase hex digits of SHA-256(bytes) (OpenSSL EVP).
std::string sha256_segment_id(std::span<const std::uint8_t> bytes);

// True iff `id` matches ^sha256:[0-9a-f]{64}$. Stores answer "absent" for any
// other id without querying (DECISION D10).
bool is_well_formed_segment_id(std::string_view id);

}  // namespace ssp
