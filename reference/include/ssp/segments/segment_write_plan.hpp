// What a put has to write: the difference between the side rows stored for a
// segment id and the record the merge produced (design notes §3.2 step 5).
// Writing only the difference keeps a put's cost independent of how many
// publications the segment already holds; the rows it leaves are the rows a
// full rewrite would leave, in the same order.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "ssp/segments/segment_types.hpp"

namespace ssp {

struct SegmentWritePlan {
  // Delete every side row of the id and insert `merged` whole, as upstream's
  // put does. Chosen when the rows cannot be edited into `merged` (below);
  // every other field is then empty.
  bool full_rewrite = false;
  // Indexes into the stored publication rows to delete, ascending.
  std::vector<std::size_t> removed;
  // (stored index, merged index) of each publication kept in its row whose
  // values changed (same key, other row count, byte length, cursors or
  // times): update that row in place, keeping its position. Ascending.
  std::vector<std::pair<std::size_t, std::size_t>> updated;
  // Indexes into merged.publications to insert after every stored row, in
  // this order. Ascending.
  std::vector<std::size_t> appended;
  // Scope digest rows to delete and to insert.
  std::vector<std::string> removed_digests;
  std::vector<std::string> added_digests;
};

// The plan that turns the stored side rows of `merged.segment_id` into
// `merged`:
//  - `stored_digests`: the digests sync_segment_scopes holds for the id, any
//    order, no duplicates;
//  - `stored_publications`: the publication rows, in stored order (oldest
//    first). Empty for a new id and for a legacy row, whose publications are
//    materialized, not stored: every merged publication is then appended.
// Publications are matched by publication key (same_publication_key). The
// rows can be edited in place when the merged order is "the stored rows that
// stay, in their order, then the new ones": the order merge_segment_record
// always produces. Otherwise the plan is full_rewrite: when stored rows share
// a key (impossible under the primary key, but a foreign writer's key text
// could differ from ours), when merged holds a key twice, when a kept
// publication moves before another kept one, or when a new publication comes
// before a kept one.
SegmentWritePlan plan_segment_write(std::span<const std::string> stored_digests,
                                    std::span<const SegmentPublication> stored_publications,
                                    const SegmentRecord& merged);

}  // namespace ssp
