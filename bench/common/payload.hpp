// Deterministic benchmark data: bytes from a seeded Mulberry32 generator and
// the metadata they are published under. Nothing is downloaded or read from
// disk; the same seed gives the same bytes on every machine, so the store and
// its floor are measured on identical payloads.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ssp/segments/segment_types.hpp"

namespace ssp::bench {

// Mulberry32: a tiny 32-bit generator, easy to reproduce in any language.
class Mulberry32 {
 public:
  explicit Mulberry32(std::uint32_t seed) : state_(seed) {}
  std::uint32_t next();
  // A value in [0, bound), bound > 0 (modulo bias is irrelevant here).
  std::uint64_t below(std::uint64_t bound) { return next() % bound; }

 private:
  std::uint32_t state_;
};

// One buffer of `size` pseudo-random bytes (size ≥ 8). stamped(n) writes n
// into the first eight bytes and returns the buffer: distinct stamps give
// distinct bytes, hence distinct segment ids, without regenerating anything.
class PayloadStream {
 public:
  PayloadStream(std::size_t size, std::uint32_t seed);
  std::span<const std::uint8_t> stamped(std::uint64_t stamp);

 private:
  std::vector<std::uint8_t> bytes_;
};

// The stamp of the index-th payload of a role on a thread. Roles and threads
// get disjoint ranges, so no two payloads of one run collide by accident.
enum class StampRole : std::uint64_t {
  put = 1,
  merge = 2,
  repeat = 3,
  population = 4,
  growth = 5
};
std::uint64_t payload_stamp(StampRole role, int thread, std::uint64_t index);

// The metadata every benchmark segment is published under: one partition,
// epoch, table, schema version and commit; only the scope digest varies. That
// is the bootstrap-storm shape (many scopes built at one commit) and the
// hardest one for find: only an index that includes the digest avoids a scan.
SegmentMetadata bench_metadata(std::string scope_digest);
// A scope digest shaped like a real one (§3.5: 64 lowercase hex digits), a
// deterministic function of `role` and `index`. Equal lengths matter: a
// re-put that changes the digest's length changes the row's size.
std::string scope_digest_for(std::string_view role, std::uint64_t index);
// The find key of bench_metadata(scope_digest).
SegmentFindKey bench_find_key(std::string scope_digest);

// The time every benchmark puts and finds at (segments live 24 h from it).
inline constexpr std::int64_t kBenchNowMs = 1'750'000'000'000;

// SHA-256 straight from OpenSSL: the hashing floor.
std::array<std::uint8_t, 32> openssl_sha256(std::span<const std::uint8_t> bytes);

// 48 bits of a segment id (hex digits 1–12 after "sha256:"), for checksums:
// the XOR of these over the segments a benchmark saw proves it did the work,
// and stays exact in the double a benchmark counter holds.
std::uint64_t checksum_bits(std::string_view segment_id);
std::uint64_t checksum_bits(const std::array<std::uint8_t, 32>& digest);

}  // namespace ssp::bench
