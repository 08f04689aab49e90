// A plain in-memory model of the 0.22 segment store, derived from the rules
// in design/segments.md (§3.1 merge, §3.4 find, DECISIONS D1–D3) and written
// apart from the reference's rule functions (merge_segment_record,
// choose_find_result, select_segment_publication): the model-based property
// compares the two, so a slip in either one shows up as a disagreement.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ssp/segments/segment_types.hpp"

namespace ssp::properties {

// "sha256:" + lowercase hex SHA-256 of `bytes` (§5.1), computed here with
// OpenSSL rather than through the reference's sha256_segment_id.
std::string model_content_address(const Bytes& bytes);

// True when `a` and `b` are the same grant: equal in every descriptor field
// except rowCount (§1.5 publicationKey: partition, epoch, table, schema,
// media type, digest, pin and both cursors).
bool same_grant(const SegmentMetadata& a, const SegmentMetadata& b);

// True when `publication` answers find(key, now_ms): the seven key fields
// are equal, the row cursor is null and it is live (expires_at_ms > now_ms).
bool answers_find(const SegmentPublication& publication, const SegmentFindKey& key,
                  std::int64_t now_ms);

// `record` with its scope digests and its publications each in one fixed
// order (ascending), so that two records listing the same digests and grants
// in different orders compare equal: SPEC §5.1 orders neither list (the
// reference's orders, D4 and ORD-1, are pinned by reference-level tests).
SegmentRecord in_canonical_order(SegmentRecord record);

class SegmentStoreModel {
 public:
  explicit SegmentStoreModel(std::int64_t ttl_ms) : ttl_ms_(ttl_ms) {}

  // True when different bytes are already stored under `segment_id`, live or
  // expired: a put of `bytes` there must be refused (§5.1).
  bool collides(const std::string& segment_id, const Bytes& bytes) const;

  // Publishes `bytes` under `metadata` at `now_ms` and returns the record put
  // must answer; absent (and nothing changes) when it collides. `segment_id`
  // is whatever the store's hasher gives for `bytes`.
  std::optional<SegmentRecord> put(const std::string& segment_id, const SegmentMetadata& metadata,
                                   const Bytes& bytes, std::int64_t now_ms);

  // Damages the bytes stored under `segment_id` as the harness does behind a
  // store's back (drops the first byte); the record, byte length included,
  // stays as it was. The id must hold at least one byte.
  void corrupt(const std::string& segment_id);

  // The record and bytes stored under `segment_id`, expired or not.
  std::optional<StoredSegment> get(const std::string& segment_id) const;

  // Every answer find(key, now_ms) may give: each publication of any record
  // that answers find (answers_find), narrowed to it (segments.md §3.4). SPEC
  // §5.3 names no winner among them, within a record or across records (our
  // choice is decision D5, a reference-level test), so a conforming find
  // answers one of these, and absent exactly when the list is empty.
  std::vector<SegmentRecord> find_answers(const SegmentFindKey& key, std::int64_t now_ms) const;

  SegmentStoreStats stats() const;

  // Every id put so far, ascending.
  std::vector<std::string> ids() const;

 private:
  // What the model keeps per content address; the digest view is derived.
  struct Entry {
    Bytes bytes;             // as stored: corrupt() may change them
    std::int64_t byte_length = 0;  // of the bytes put
    SegmentMetadata latest;  // the last successful put's metadata
    std::vector<SegmentPublication> publications;  // oldest first
    std::int64_t first_seen_ms = 0;  // D3-A envelope over every sighting
    std::int64_t last_expiry_ms = 0;
  };

  static SegmentRecord record_of(const std::string& segment_id, const Entry& entry);

  std::int64_t ttl_ms_;
  std::map<std::string, Entry> entries_;
};

}  // namespace ssp::properties
