// Value types of the segment store (SSP2 §5.1, §5.3, §5.4): what a segment was
// published under, one publication, the whole record of a content address.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ssp/values/bytes.hpp"

namespace ssp {

// §5.4 mediaType. A stored value other than "sqlite" decodes as rows (DECISION D14).
enum class MediaType { rows, sqlite };

// The wire spelling of a media type: "rows" or "sqlite".
const char* media_type_name(MediaType type);

// The descriptor context a segment is published under (upstream SegmentMetadata).
// Integers are within the JS safe range ±(2^53−1); strings are well-formed UTF-8
// without U+0000 (validate_metadata enforces both before anything is stored).
struct SegmentMetadata {
  std::string partition;
  std::string log_epoch;  // §2.1; '' only on rows upgraded from pre-epoch databases
  std::string table;
  std::int64_t schema_version = 0;
  MediaType media_type = MediaType::rows;
  std::string scope_digest;  // §3.5
  std::int64_t as_of_commit_seq = 0;
  std::int64_t row_count = 0;
  std::optional<std::string> row_cursor;
  std::optional<std::string> next_row_cursor;

  friend bool operator==(const SegmentMetadata&, const SegmentMetadata&) = default;
};

// One grant (0.22): the metadata the bytes were published under plus its own
// cache lifetime. Live iff expires_at_ms > now_ms.
struct SegmentPublication {
  SegmentMetadata metadata;
  std::int64_t byte_length = 0;
  std::int64_t created_at_ms = 0;
  std::int64_t expires_at_ms = 0;

  bool is_live(std::int64_t now_ms) const { return expires_at_ms > now_ms; }
  friend bool operator==(const SegmentPublication&, const SegmentPublication&) = default;
};

// Everything known about one content address.
//  - metadata: compatibility view, the context of the latest successful put;
//  - scope_digests: the primary (= metadata.scope_digest) first, then the other
//    digests of the publications in ascending byte order (DECISION D4), no duplicates;
//  - publications: oldest first; a re-publication keeps its position;
//  - created_at_ms / expires_at_ms: envelope over every sighting (DECISION D3-A).
struct SegmentRecord {
  std::string segment_id;
  SegmentMetadata metadata;
  std::vector<std::string> scope_digests;
  std::vector<SegmentPublication> publications;
  std::int64_t byte_length = 0;
  std::int64_t created_at_ms = 0;
  std::int64_t expires_at_ms = 0;

  friend bool operator==(const SegmentRecord&, const SegmentRecord&) = default;
};

// The §5.3 reuse key. find() also requires a null row cursor on the match.
struct SegmentFindKey {
  std::string partition;
  std::string log_epoch;
  std::string table;
  std::int64_t schema_version = 0;
  MediaType media_type = MediaType::rows;
  std::string scope_digest;
  std::int64_t as_of_commit_seq = 0;

  friend bool operator==(const SegmentFindKey&, const SegmentFindKey&) = default;
};

// The find key of a metadata value (its seven key fields).
SegmentFindKey find_key_of(const SegmentMetadata& metadata);

// Admin counters over distinct content addresses, expired ones included.
// The media split follows the top-level (latest) media type.
struct SegmentStoreStats {
  std::int64_t count = 0;
  std::int64_t bytes = 0;
  std::int64_t rows_segments = 0;
  std::int64_t sqlite_segments = 0;

  friend bool operator==(const SegmentStoreStats&, const SegmentStoreStats&) = default;
};

// A record together with its stored bytes, as get() returns it.
struct StoredSegment {
  SegmentRecord record;
  Bytes bytes;
};

}  // namespace ssp
