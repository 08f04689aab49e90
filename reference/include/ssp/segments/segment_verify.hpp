// Whole-store integrity check for operators (ssp-segments verify): every
// stored segment re-hashed (§5.1: the id is the SHA-256 of the exact bytes)
// and the side tables checked against sync_segments.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ssp/segments/segment_id.hpp"
#include "ssp/segments/segment_inspector.hpp"
#include "ssp/segments/segment_store_options.hpp"

namespace ssp {

// What verify found. Every list is sorted ascending (byte order) and free of
// duplicates, so two runs over the same data print the same report.
struct SegmentVerification {
  std::int64_t segments_checked = 0;
  // sync_segments rows whose bytes do not hash to their id (a malformed id
  // never matches). Corrupt.
  std::vector<std::string> mismatched_ids;
  // Side-table rows whose segment row is gone. Corrupt: a put writes all three
  // tables together and nothing deletes, so they mean tampering or damage.
  std::vector<std::string> orphan_scope_ids;
  std::vector<std::string> orphan_publication_ids;
  // Rows without publication rows (0.21 or intermediate writers). Valid data,
  // reported as information.
  std::vector<std::string> legacy_ids;

  // True iff any corrupt list is non-empty; legacy rows never make it true.
  bool corrupt() const;
};

// Runs every check through `inspector`, hashing with `hasher` (tests inject
// another; production uses sha256_segment_id). Throws what the inspector throws.
SegmentVerification verify_segments(SegmentInspector& inspector,
                                    const ContentHasher& hasher = sha256_segment_id);

}  // namespace ssp
