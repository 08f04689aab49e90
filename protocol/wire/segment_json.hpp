// The segment values' JSON, both ways: the objects the driver protocol carries
// and the operator tools print, with the upstream TypeScript field names
// (segmentId, partition, logEpoch, table, schemaVersion, mediaType,
// scopeDigest, asOfCommitSeq, rowCount, rowCursor, nextRowCursor, byteLength,
// createdAtMs, expiresAtMs, scopeDigests, publications).
//
// Objects keep the upstream field order (nlohmann::ordered_json), so the text
// reads like a record the TypeScript server would print. Decoders check shapes
// only and throw WireError naming the path: a value outside a contract (an
// unsafe integer, U+0000 in a name) still decodes, because refusing it is the
// candidate's job, or the caller's.
#pragma once

#include <optional>
#include <string>

#include "ssp/segments/segment_types.hpp"
#include "wire/wire_json.hpp"

namespace ssp::wire {

// A JSON string, or null when `text` is absent.
Json json_string_or_null(const std::optional<std::string>& text);

// partition … nextRowCursor; a null cursor is JSON null.
Json metadata_to_json(const SegmentMetadata& metadata);
SegmentMetadata metadata_from_json(const Json& value, const std::string& path);

// The metadata fields, then byteLength, createdAtMs, expiresAtMs.
Json publication_to_json(const SegmentPublication& publication);
SegmentPublication publication_from_json(const Json& value, const std::string& path);

// segmentId, the top-level metadata, byteLength, createdAtMs, expiresAtMs,
// scopeDigests (in record order) and publications (oldest first).
Json record_to_json(const SegmentRecord& record);
SegmentRecord record_from_json(const Json& value, const std::string& path);

// count, bytes, rowsSegments, sqliteSegments (no "approximate": no backend
// of ours estimates).
Json stats_to_json(const SegmentStoreStats& stats);
SegmentStoreStats stats_from_json(const Json& value, const std::string& path);

// The seven §5.3 key fields (partition, logEpoch, table, schemaVersion,
// mediaType, scopeDigest, asOfCommitSeq). The decoder ignores other fields, so
// a record printed by record_to_json is a valid key for its own top-level
// context.
Json find_key_to_json(const SegmentFindKey& key);
SegmentFindKey find_key_from_json(const Json& value, const std::string& path);

// {"record", "bytes"}, the bytes as base64.
Json stored_segment_to_json(const StoredSegment& segment);
StoredSegment stored_segment_from_json(const Json& value, const std::string& path);

}  // namespace ssp::wire
