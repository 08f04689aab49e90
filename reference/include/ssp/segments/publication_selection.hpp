// Choosing and narrowing publications: the rules behind find (§5.3) and the
// download path (§5.5), written once for every backend.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ssp/segments/segment_types.hpp"

namespace ssp {

// What a caller asks for. partition, log_epoch and scope_digest always have to
// match; an unset optional field is a wildcard. row_cursor set to
// std::optional<std::string>{} (engaged outer, empty inner) demands a null cursor.
struct PublicationSelector {
  std::string partition;
  std::string log_epoch;
  std::string scope_digest;
  std::optional<std::string> table;
  std::optional<std::int64_t> schema_version;
  std::optional<MediaType> media_type;
  std::optional<std::int64_t> as_of_commit_seq;
  std::optional<std::optional<std::string>> row_cursor;
  std::optional<std::int64_t> live_at_ms;  // when set, only publications live then
};

// The selector find() uses for `key` at `now_ms`: all seven key fields, a null
// row cursor and liveness.
PublicationSelector find_selector(const SegmentFindKey& key, std::int64_t now_ms);

// The newest (last appended) publication of `record` matching `selector`.
std::optional<SegmentPublication> select_segment_publication(
    const SegmentRecord& record, const PublicationSelector& selector);

// `record` narrowed to one grant: top-level metadata, byte length and times
// from `publication`, scope_digests = [its digest], publications = [it].
SegmentRecord publication_record(const SegmentRecord& record,
                                 const SegmentPublication& publication);

// Legacy materialization for a record that has no stored publications (a 0.21
// or intermediate row): one publication per entry of scope_digests, in order,
// each carrying the top-level context and times.
std::vector<SegmentPublication> publications_for_record(const SegmentRecord& record);

// find's answer over `candidates` (records that may hold a live publication
// under `key`): each record's newest matching publication, then across records
// the greatest expires_at_ms, then the greatest created_at_ms, then the
// smallest segment id (DECISION D5). Returned narrowed (publication_record).
std::optional<SegmentRecord> choose_find_result(const std::vector<SegmentRecord>& candidates,
                                                const SegmentFindKey& key,
                                                std::int64_t now_ms);

}  // namespace ssp
