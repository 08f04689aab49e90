#include "wire/segment_json.hpp"

#include <string>

#include "ssp/encoding/json_input.hpp"
#include "ssp/encoding/json_safe_integer.hpp"
#include "ssp/errors/errors.hpp"

namespace ssp {
namespace {

using Json = nlohmann::ordered_json;

[[noreturn]] void refuse_field(std::string_view field, std::string_view why) {
  throw InvalidArgument("find key: field \"" + std::string(field) + "\" " + std::string(why));
}

const Json& required(const Json& object, std::string_view field) {
  const auto found = object.find(field);
  if (found == object.end()) refuse_field(field, "is missing");
  return *found;
}

std::string string_field(const Json& object, std::string_view field) {
  const Json& value = required(object, field);
  if (!value.is_string()) refuse_field(field, "must be a string");
  std::string text = value.get<std::string>();
  // PostgreSQL text cannot hold U+0000; refusing it everywhere keeps the
  // backends equivalent (as validate_metadata does for puts).
  if (text.find('\0') != std::string::npos) refuse_field(field, "must not contain U+0000");
  return text;
}

std::int64_t integer_field(const Json& object, std::string_view field) {
  const auto value = json_safe_integer(required(object, field));
  if (!value) refuse_field(field, "must be an integer within ±(2^53−1)");
  return *value;
}

MediaType media_type_field(const Json& object, std::string_view field) {
  const Json& value = required(object, field);
  if (value == "rows") return MediaType::rows;
  if (value == "sqlite") return MediaType::sqlite;
  refuse_field(field, "must be \"rows\" or \"sqlite\"");
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

SegmentFindKey find_key_from_json(const Json& key) {
  if (!key.is_object()) throw InvalidArgument("find key: must be a JSON object");
  SegmentFindKey result;
  result.partition = string_field(key, "partition");
  result.log_epoch = string_field(key, "logEpoch");
  result.table = string_field(key, "table");
  result.schema_version = integer_field(key, "schemaVersion");
  result.media_type = media_type_field(key, "mediaType");
  result.scope_digest = string_field(key, "scopeDigest");
  result.as_of_commit_seq = integer_field(key, "asOfCommitSeq");
  return result;
}

SegmentFindKey find_key_from_json_text(std::string_view text) {
  try {
    return find_key_from_json(parse_json_input<Json>(text));
  } catch (const JsonSyntaxError& error) {
    throw InvalidArgument(std::string("find key: not valid JSON: ") + error.what());
  }
}

}  // namespace ssp
