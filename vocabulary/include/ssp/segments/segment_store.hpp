// The segment store contract (SSP2 §5.1–§5.5 at 0.22 semantics). What a C++
// candidate implements; the reference backends are memory, SQLite, PostgreSQL.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "ssp/segments/segment_types.hpp"

namespace ssp {

class SegmentStore {
 public:
  virtual ~SegmentStore() = default;

  // Publishes `bytes` under `metadata` at `now_ms` and returns the merged full
  // record (not narrowed): top level = `metadata`, every publication.
  //
  // Reads, checks, merges (merge_segment_record) and writes in one atomic step
  // per segment id: concurrent puts of identical bytes from any number of
  // connections or processes never lose a publication (DECISION D6).
  // Throws, with nothing written:
  //  - InvalidArgument when metadata or now_ms is outside the contract;
  //  - SegmentCollision when bytes stored under the same id differ (§5.1),
  //    expired entries included;
  //  - ReadOnlyStore on a store opened read-only;
  //  - StorageError when the backend fails (busy past the lock wait, I/O).
  // A crash at any point leaves either the old or the new state, never a mix.
  virtual SegmentRecord put(const SegmentMetadata& metadata,
                            std::span<const std::uint8_t> bytes, std::int64_t now_ms) = 0;

  // The record and exact stored bytes of `segment_id`, live or expired, with
  // unfiltered publications (every partition and epoch). The hash is not
  // re-verified. Absent for an unknown or malformed id (no query is made).
  virtual std::optional<StoredSegment> get(const std::string& segment_id) = 0;

  // §5.3 reuse: a live publication (expires_at_ms > now_ms) matching all seven
  // key fields with a null row cursor, returned narrowed to that publication
  // (choose_find_result decides between candidates). Absent when none exists.
  // A lookup by key, not a scan.
  virtual std::optional<SegmentRecord> find(const SegmentFindKey& key,
                                            std::int64_t now_ms) = 0;

  // Counters over distinct content addresses, expired ones included.
  virtual SegmentStoreStats stats() = 0;
};

}  // namespace ssp
