// Segment values as JSON objects with the upstream TypeScript field names
// (segmentId, partition, logEpoch, table, schemaVersion, mediaType,
// scopeDigest, asOfCommitSeq, rowCount, rowCursor, nextRowCursor, byteLength,
// createdAtMs, expiresAtMs, scopeDigests, publications), for tools and
// drivers that exchange records with other implementations.
//
// Objects keep the upstream field order (nlohmann::ordered_json), so the text
// reads like a record the TypeScript server would print.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "ssp/segments/segment_types.hpp"

namespace ssp {

// A JSON string, or null when `text` is absent.
nlohmann::ordered_json json_string_or_null(const std::optional<std::string>& text);

// partition … nextRowCursor; a null cursor is JSON null.
nlohmann::ordered_json metadata_to_json(const SegmentMetadata& metadata);

// The metadata fields, then byteLength, createdAtMs, expiresAtMs.
nlohmann::ordered_json publication_to_json(const SegmentPublication& publication);

// segmentId, the top-level metadata, byteLength, createdAtMs, expiresAtMs,
// scopeDigests (in record order) and publications (oldest first).
nlohmann::ordered_json record_to_json(const SegmentRecord& record);

// count, bytes, rowsSegments, sqliteSegments (no "approximate": no backend
// of ours estimates).
nlohmann::ordered_json stats_to_json(const SegmentStoreStats& stats);

// Reads the seven §5.3 key fields (partition, logEpoch, table, schemaVersion,
// mediaType, scopeDigest, asOfCommitSeq) from an object. Other fields are
// ignored, so a record printed by record_to_json is a valid key for its own
// top-level context. Throws InvalidArgument naming the field when one is
// missing, of the wrong JSON type, an integer outside ±(2^53−1), a string
// containing U+0000, or a mediaType other than "rows" / "sqlite"; and when
// `key` is not an object.
SegmentFindKey find_key_from_json(const nlohmann::ordered_json& key);

// The same from JSON text; also throws InvalidArgument when `text` is not JSON.
SegmentFindKey find_key_from_json_text(std::string_view text);

}  // namespace ssp
