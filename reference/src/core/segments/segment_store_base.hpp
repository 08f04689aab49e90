// What every segment store backend shares, written once: the order of a put
// (argument checks, the read-only refusal, hashing, the hook points, the
// store's lock, the collision and merge decision), the find rule, and how
// backend failures are named. A backend supplies only storage: read,
// compare, write and commit for one put; a record by id; the records under
// a find key; the counters.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ssp/segments/segment_store.hpp"
#include "ssp/segments/segment_store_options.hpp"
#include "timed_mutex.hpp"

namespace ssp {

// One put in progress on one backend: it holds the write lock of its
// segment id from its creation (SegmentStoreBase::begin_put) until commit or
// destruction. Destroying it uncommitted rolls everything back. Methods are
// called at most once each, in declaration order; stored_bytes_equal only
// when read found a record. Failures throw StorageError.
class SegmentPutTransaction {
 public:
  virtual ~SegmentPutTransaction() = default;

  // The record stored under the id, live or expired (publications
  // materialized for a legacy row); absent for a new id.
  virtual std::optional<SegmentRecord> read() = 0;
  // Whether the stored bytes equal `bytes`.
  virtual bool stored_bytes_equal(std::span<const std::uint8_t> bytes) = 0;
  // Replaces what read found by `record`. `bytes` are stored only for a new
  // id; an existing id keeps its (proven identical) bytes.
  virtual void write(const SegmentRecord& record, std::span<const std::uint8_t> bytes) = 0;
  // Makes the write visible to every reader at once and releases the lock.
  virtual void commit() = 0;
};

class SegmentStoreBase : public SegmentStore {
 public:
  // put, in this order, the same on every backend:
  //  1. validate_put (InvalidArgument), then the read-only refusal
  //     (ReadOnlyStore), then the content address (options.hasher);
  //  2. PutHookPoint::before_begin, holding no lock;
  //  3. the store's lock (other threads' calls on this store wait; a put
  //     waits at most lock_wait_ms, then StorageError), then begin_put;
  //  4. read, and stored_bytes_equal when a record exists;
  //  5. PutHookPoint::after_read; decide_put (SegmentCollision);
  //  6. write; PutHookPoint::before_commit; commit.
  // Without a put_hook nobody can tell steps 3–6 apart, and a backend that
  // offers insert_if_absent is first asked to store the new-id record of
  // decide_put in that one atomic step; the steps run as above only when the
  // id holds something.
  // A StorageError from steps 3–6 is rethrown as "<store>: put <id>: …";
  // an exception from a hook propagates unchanged. Either way nothing is
  // committed.
  SegmentRecord put(const SegmentMetadata& metadata, std::span<const std::uint8_t> bytes,
                    std::int64_t now_ms) final;
  // Absent without asking the backend for a malformed id (D10).
  std::optional<StoredSegment> get(const std::string& segment_id) final;
  // choose_find_result over find_candidates: the liveness, media type and
  // cursor rules and the D5 ranking are decided here for every backend.
  std::optional<SegmentRecord> find(const SegmentFindKey& key, std::int64_t now_ms) final;
  SegmentStoreStats stats() final;

 protected:
  // `name` starts every error message ("SqliteSegmentStore"). Validates
  // `options` (validated) before the backend opens anything.
  SegmentStoreBase(std::string name, SegmentStoreOptions options);

  const SegmentStoreOptions& options() const { return options_; }

  // The backend operations. The store's lock is held during each call, so a
  // backend serializes nothing itself. Failures throw StorageError.

  // Opens the put of `segment_id` and takes its write lock against other
  // connections, waiting at most lock_wait_ms.
  virtual std::unique_ptr<SegmentPutTransaction> begin_put(const std::string& segment_id) = 0;
  // Whether insert_if_absent is worth trying: a backend whose every step of
  // a put costs a round trip to its server says yes.
  virtual bool offers_insert_if_absent() const { return false; }
  // Stores `fresh`, a new id's record (decide_put's: one publication, one
  // digest), with `bytes` in one atomic step that takes the id's write lock
  // (waiting at most lock_wait_ms), when the id holds nothing: no record and
  // no stray side rows. Returns false, having written nothing, when it holds
  // anything or the backend declines; the put then takes the steps of
  // begin_put, which clear stray side rows. Called only when
  // offers_insert_if_absent; the default declines.
  virtual bool insert_if_absent(const SegmentRecord& /*fresh*/,
                                std::span<const std::uint8_t> /*bytes*/) {
    return false;
  }
  // The record and bytes stored under a well-formed id, from one snapshot
  // (D11).
  virtual std::optional<StoredSegment> read_segment(const std::string& segment_id) = 0;
  // Every record holding a publication whose partition, log epoch, table,
  // scope digest, schema version and pin equal `key`'s, live or expired, of
  // either media type, from one snapshot (D11). Found through an index on
  // those fields, never by a scan. Extra records are harmless (the rule
  // skips them); SQL backends leave out paged publications because their
  // find index holds only null cursors (DECISION D8).
  virtual std::vector<SegmentRecord> find_candidates(const SegmentFindKey& key) = 0;
  virtual SegmentStoreStats read_stats() = 0;

 private:
  // Runs `work` under the store's lock, renaming its StorageError
  // "<store>: <operation>: …".
  template <typename Work>
  auto locked(std::string_view operation, Work&& work) -> decltype(work());
  void hook(PutHookPoint point) const;

  const std::string name_;
  const SegmentStoreOptions options_;
  // One connection (or one map) per store: every call runs alone. Timed so
  // that a put waits for another put on this store no longer than for one
  // on another connection (lock_wait_ms).
  TimedMutex mutex_;
};

}  // namespace ssp
