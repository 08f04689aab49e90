// A segment's content address computed outside the reference (OpenSSL's
// SHA-256), for a test that must hash as SSP2 does (§5.1) without asking the
// code under test: an injected hasher, a model's expected id.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace ssp::harness {

// "sha256:" and the lowercase hex SHA-256 of `bytes`. Throws
// std::runtime_error when OpenSSL fails.
std::string sha256_content_address(std::span<const std::uint8_t> bytes);

}  // namespace ssp::harness
