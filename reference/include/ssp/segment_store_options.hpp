// Construction options shared by every segment store backend.
#pragma once

#include <cstdint>
#include <functional>

#include "ssp/segment_id.hpp"
#include "ssp/segment_validation.hpp"

namespace ssp {

// Named points inside put, in the order a put passes them. Tests park a put at
// one of them with a latch to build a deterministic interleaving.
enum class PutHookPoint {
  before_begin,  // nothing locked yet
  after_read,    // the write lock is held and the existing record was read
  before_commit, // every row is written, the transaction is still open
};

struct SegmentStoreOptions {
  // Lifetime given to a publication at put time; must be positive (validate_ttl).
  std::int64_t ttl_ms = kDefaultSegmentTtlMs;
  // How a content address is computed. Tests only: a colliding hasher.
  ContentHasher hasher = sha256_segment_id;
  // How long a write waits for a lock held by another connection before put
  // throws StorageError (SQLite busy_timeout, PostgreSQL lock_timeout).
  std::int64_t lock_wait_ms = 30'000;
  // Called at each PutHookPoint, on the putting thread. Tests only.
  std::function<void(PutHookPoint)> put_hook;
  // Open without changing the database (tools). put throws ReadOnlyStore; a
  // legacy 0.21 database answers as it would after the upgrade.
  bool read_only = false;
};

// `options` after validate_ttl; backends call it before opening anything.
SegmentStoreOptions validated(SegmentStoreOptions options);

}  // namespace ssp
