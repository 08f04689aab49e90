// How GoogleTest prints the segment value types in failure messages: field
// by field with the upstream names, instead of a byte dump. Found by ADL.
#pragma once

#include <ostream>

#include "ssp/segments/segment_types.hpp"

namespace ssp {

void PrintTo(const SegmentMetadata& metadata, std::ostream* out);
void PrintTo(const SegmentPublication& publication, std::ostream* out);
void PrintTo(const SegmentRecord& record, std::ostream* out);
void PrintTo(const SegmentStoreStats& stats, std::ostream* out);

}  // namespace ssp
