#include "ssp/publication_key.hpp"

#include "ssp/json_text.hpp"

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

}  // namespace ssp
