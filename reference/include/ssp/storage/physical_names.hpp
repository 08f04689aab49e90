// How declared names become SQL identifiers (storage.md §3 step 4, §4.3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ssp::storage {

// Every identifier in generated SQL is double-quoted with '"' doubled.
std::string quote_identifier(std::string_view name);

// FNV-1a 64 over the bytes of `text`: offset basis 0xcbf29ce484222325, prime
// 0x100000001b3, XOR then multiply, modulo 2^64.
std::uint64_t fnv1a64(std::string_view text);

// The longest identifier PostgreSQL keeps, in bytes: a longer declared name
// is refused, a longer owned index name is hashed.
inline constexpr std::size_t kMaxIdentifierBytes = 63;

// The prefix that marks an index as owned by the storage: owned indexes are
// dropped and re-created on every schema bump; others are left alone.
inline constexpr std::string_view kOwnedIndexPrefix = "sync_ix_";

// "sync_ix_<declared>" when that fits in 63 UTF-8 bytes (the PostgreSQL
// identifier limit), else "sync_ix_" + 16 lowercase hex digits of
// fnv1a64(declared). Deterministic; the same on every backend.
std::string physical_index_name(std::string_view declared);

// Whether `a` sorts before `b` by UTF-16 code units (JavaScript's default
// string order), for well-formed UTF-8 inputs.
bool utf16_less(std::string_view a, std::string_view b);

}  // namespace ssp::storage
