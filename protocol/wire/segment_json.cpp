#include "wire/segment_json.hpp"

#include "ssp/encoding/base64.hpp"

namespace ssp::wire {
namespace {

MediaType media_type_at(const Fields& f, std::string_view name) {
  const std::string text = f.text(name);
  if (text == "rows") return MediaType::rows;
  if (text == "sqlite") return MediaType::sqlite;
  throw WireError(f.path_of(name) + ": expected \"rows\" or \"sqlite\"");
}

// byteLength, createdAtMs, expiresAtMs: shared by publications and records.
void read_times(const Fields& f, std::int64_t& byte_length, std::int64_t& created_at_ms,
                std::int64_t& expires_at_ms) {
  byte_length = f.integer("byteLength");
  created_at_ms = f.integer("createdAtMs");
  expires_at_ms = f.integer("expiresAtMs");
}

}  // namespace

Json json_string_or_null(const std::optional<std::string>& text) {
  return text ? Json(*text) : Json(nullptr);
}

Json metadata_to_json(const SegmentMetadata& m) {
  return Json{{"partition", m.partition},
              {"logEpoch", m.log_epoch},
              {"table", m.table},
              {"schemaVersion", m.schema_version},
              {"mediaType", media_type_name(m.media_type)},
              {"scopeDigest", m.scope_digest},
              {"asOfCommitSeq", m.as_of_commit_seq},
              {"rowCount", m.row_count},
              {"rowCursor", json_string_or_null(m.row_cursor)},
              {"nextRowCursor", json_string_or_null(m.next_row_cursor)}};
}

Json publication_to_json(const SegmentPublication& publication) {
  Json json = metadata_to_json(publication.metadata);
  json["byteLength"] = publication.byte_length;
  json["createdAtMs"] = publication.created_at_ms;
  json["expiresAtMs"] = publication.expires_at_ms;
  return json;
}

Json record_to_json(const SegmentRecord& record) {
  Json json{{"segmentId", record.segment_id}};
  json.update(publication_to_json(
      SegmentPublication{record.metadata, record.byte_length, record.created_at_ms,
                         record.expires_at_ms}));
  json["scopeDigests"] = record.scope_digests;
  Json publications = Json::array();
  for (const auto& publication : record.publications) {
    publications.push_back(publication_to_json(publication));
  }
  json["publications"] = std::move(publications);
  return json;
}

Json stats_to_json(const SegmentStoreStats& stats) {
  return Json{{"count", stats.count},
              {"bytes", stats.bytes},
              {"rowsSegments", stats.rows_segments},
              {"sqliteSegments", stats.sqlite_segments}};
}

SegmentMetadata metadata_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  SegmentMetadata m;
  m.partition = f.text("partition");
  m.log_epoch = f.text("logEpoch");
  m.table = f.text("table");
  m.schema_version = f.integer("schemaVersion");
  m.media_type = media_type_at(f, "mediaType");
  m.scope_digest = f.text("scopeDigest");
  m.as_of_commit_seq = f.integer("asOfCommitSeq");
  m.row_count = f.integer("rowCount");
  m.row_cursor = f.nullable_text("rowCursor");
  m.next_row_cursor = f.nullable_text("nextRowCursor");
  return m;
}

SegmentPublication publication_from_json(const Json& value, const std::string& path) {
  SegmentPublication publication;
  publication.metadata = metadata_from_json(value, path);
  read_times(Fields(value, path), publication.byte_length, publication.created_at_ms,
             publication.expires_at_ms);
  return publication;
}

SegmentRecord record_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  SegmentRecord record;
  record.segment_id = f.text("segmentId");
  record.metadata = metadata_from_json(value, path);
  read_times(f, record.byte_length, record.created_at_ms, record.expires_at_ms);
  record.scope_digests = texts_value(f.array("scopeDigests"), f.path_of("scopeDigests"));
  const Json& publications = f.array("publications");
  for (std::size_t i = 0; i < publications.size(); ++i) {
    record.publications.push_back(
        publication_from_json(publications[i], element_path(f.path_of("publications"), i)));
  }
  return record;
}

SegmentStoreStats stats_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  return SegmentStoreStats{f.integer("count"), f.integer("bytes"), f.integer("rowsSegments"),
                           f.integer("sqliteSegments")};
}

Json find_key_to_json(const SegmentFindKey& key) {
  return Json{{"partition", key.partition},
              {"logEpoch", key.log_epoch},
              {"table", key.table},
              {"schemaVersion", key.schema_version},
              {"mediaType", media_type_name(key.media_type)},
              {"scopeDigest", key.scope_digest},
              {"asOfCommitSeq", key.as_of_commit_seq}};
}

SegmentFindKey find_key_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  return SegmentFindKey{f.text("partition"),      f.text("logEpoch"),
                        f.text("table"),          f.integer("schemaVersion"),
                        media_type_at(f, "mediaType"), f.text("scopeDigest"),
                        f.integer("asOfCommitSeq")};
}

Json stored_segment_to_json(const StoredSegment& segment) {
  return Json{{"record", record_to_json(segment.record)},
              {"bytes", base64_encode(segment.bytes)}};
}

StoredSegment stored_segment_from_json(const Json& value, const std::string& path) {
  const Fields f(value, path);
  return StoredSegment{record_from_json(f.at("record"), f.path_of("record")), f.bytes("bytes")};
}

}  // namespace ssp::wire
