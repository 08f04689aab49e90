#include "ssp/segments/publication_key.hpp"

#include <functional>

#include "ssp/encoding/json_text.hpp"

namespace ssp {
namespace {

void append_nullable(std::string& out, const std::optional<std::string>& value) {
  if (value) {
    append_json_string(out, *value);
  } else {
    out += "null";
  }
}

}  // namespace

std::string publication_key(const SegmentMetadata& m) {
  std::string key;
  key.reserve(96 + m.partition.size() + m.log_epoch.size() + m.table.size() +
               m.scope_digest.size());
  key.push_back('[');
  append_json_string(key, m.partition);
  key.push_back(',');
  append_json_string(key, m.log_epoch);
  key.push_back(',');
  append_json_string(key, m.table);
  key.push_back(',');
  append_json_integer(key, m.schema_version);
  key.push_back(',');
  append_json_string(key, media_type_name(m.media_type));
  key.push_back(',');
  append_json_string(key, m.scope_digest);
  key.push_back(',');
  append_json_integer(key, m.as_of_commit_seq);
  key.push_back(',');
  append_nullable(key, m.row_cursor);
  key.push_back(',');
  append_nullable(key, m.next_row_cursor);
  key.push_back(']');
  return key;
}

bool same_publication_key(const SegmentMetadata& a, const SegmentMetadata& b) {
  return a.scope_digest == b.scope_digest && a.partition == b.partition &&
         a.log_epoch == b.log_epoch && a.table == b.table &&
         a.schema_version == b.schema_version && a.media_type == b.media_type &&
         a.as_of_commit_seq == b.as_of_commit_seq && a.row_cursor == b.row_cursor &&
         a.next_row_cursor == b.next_row_cursor;
}

std::size_t publication_key_hash(const SegmentMetadata& m) {
  std::size_t hash = std::hash<std::string>{}(m.scope_digest);
  const auto mix = [&hash](std::size_t value) {
    hash ^= value + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2);
  };
  mix(std::hash<std::string>{}(m.partition));
  mix(std::hash<std::string>{}(m.log_epoch));
  mix(std::hash<std::string>{}(m.table));
  mix(std::hash<std::int64_t>{}(m.schema_version));
  mix(static_cast<std::size_t>(m.media_type));
  mix(std::hash<std::int64_t>{}(m.as_of_commit_seq));
  mix(m.row_cursor ? std::hash<std::string>{}(*m.row_cursor) : 1);
  mix(m.next_row_cursor ? std::hash<std::string>{}(*m.next_row_cursor) : 2);
  return hash;
}

}  // namespace ssp
