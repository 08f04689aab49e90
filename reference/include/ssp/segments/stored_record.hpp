// How SQL backends turn their three tables back into a record (get, find).
#pragma once

#include <string>
#include <vector>

#include "ssp/segments/segment_types.hpp"

namespace ssp {

// Builds a record from its stored parts:
//  - `top`: the sync_segments row (scope_digests and publications ignored);
//  - `stored_digests`: the sync_segment_scopes digests, in any order;
//  - `stored_publications`: the sync_segment_publications rows, oldest first.
// scope_digests becomes the primary digest then the others ascending (D4).
// A row without stored publications is a legacy (0.21 or intermediate) row:
// its publications are materialized with publications_for_record.
SegmentRecord assemble_stored_record(SegmentRecord top, std::vector<std::string> stored_digests,
                                     std::vector<SegmentPublication> stored_publications);

}  // namespace ssp
