// One-line renderings of segment values, for RapidCheck counterexamples and
// failure messages (compact: a shrunk sequence should read at a glance).
#pragma once

#include <string>

#include "ssp/segments/segment_types.hpp"

namespace ssp::properties {

// `text` on one line: control characters and DEL as \xNN, a backslash
// doubled, a 64-character scope digest cut to its first 8 characters.
std::string printable(const std::string& text);

// {p1 e1 tasks v1 sqlite d2 pin3 rows=5 cursor=- next=c2}
std::string describe(const SegmentMetadata& metadata);
// {p1 e1 tasks v1 sqlite d2 pin3}
std::string describe(const SegmentFindKey& key);
// <metadata> len=5 created=t+0 expires=t+100, times relative to `origin_ms`
std::string describe(const SegmentPublication& publication, std::int64_t origin_ms);
// Every field of the record, one publication a line, times relative to `origin_ms`.
std::string describe(const SegmentRecord& record, std::int64_t origin_ms);

}  // namespace ssp::properties
