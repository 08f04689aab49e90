// Construction options shared by every segment store backend.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace ssp {

// Default segment lifetime (24 h, SPEC §5.1).
inline constexpr std::int64_t kDefaultSegmentTtlMs = 86'400'000;

// Maps bytes to their segment id. Stores take one so tests can inject a
// colliding hasher (§5.1 collision refusal).
using ContentHasher = std::function<std::string(std::span<const std::uint8_t>)>;

// Named points inside put, in the order a put passes them, at the same place
// on every backend. Tests park a put at one of them with a latch to build a
// deterministic interleaving, and observe from outside what it holds there.
// A put refused for its arguments (InvalidArgument) or because the store is
// read-only (ReadOnlyStore) passes none of them.
enum class PutHookPoint {
  // The arguments are checked and the content address computed. The put
  // holds no lock: neither its store's (another put on the same store runs
  // to completion meanwhile) nor the database's (so does one on another
  // connection).
  before_begin,
  // The put holds the write lock of its content address: another put of the
  // same bytes, on this store or on another connection over the same
  // database, waits until this one ends (or fails with StorageError past its
  // lock_wait_ms). The stored record is read and the bytes compared; nothing
  // is written. A collision is refused after this point.
  after_read,
  // Every row is written and nothing committed: the write lock is still
  // held, and another connection still reads the state before the put.
  before_commit,
};

struct SegmentStoreOptions {
  // Lifetime given to a publication at put time; must be positive.
  std::int64_t ttl_ms = kDefaultSegmentTtlMs;
  // How a content address is computed. Unset (production): §5.1's, "sha256:"
  // and the hex SHA-256 of the bytes. Tests only: a colliding hasher.
  ContentHasher hasher;
  // How long a put waits for a lock held by another put, on this store or on
  // another connection, before it throws StorageError (SQLite busy_timeout,
  // PostgreSQL lock_timeout, and the store's own lock).
  std::int64_t lock_wait_ms = 30'000;
  // Called at each PutHookPoint, on the putting thread. An exception it
  // throws fails the put with nothing committed. Tests only. Without a hook
  // the points are unobservable, and a backend may store a new id in one
  // atomic step that holds the same lock (SegmentStoreBase::put).
  std::function<void(PutHookPoint)> put_hook;
  // Open without changing the database (tools). put throws ReadOnlyStore; a
  // legacy 0.21 database answers as it would after the upgrade.
  bool read_only = false;
};

}  // namespace ssp
