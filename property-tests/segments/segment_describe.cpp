#include "segment_describe.hpp"

namespace ssp::properties {

std::string printable(const std::string& text) {
  if (text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string::npos) {
    return text.substr(0, 8) + "…";
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\\') {
      out += "\\\\";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += "\\x";
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0x0f]);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

namespace {

std::string cursor_text(const std::optional<std::string>& cursor) {
  return cursor ? printable(*cursor) : std::string("-");
}

std::string relative(std::int64_t ms, std::int64_t origin_ms) {
  const std::int64_t delta = ms - origin_ms;
  return delta < 0 ? "t" + std::to_string(delta) : "t+" + std::to_string(delta);
}

}  // namespace

std::string describe(const SegmentMetadata& m) {
  return "{" + printable(m.partition) + " " + printable(m.log_epoch) + " " + printable(m.table) +
         " v" + std::to_string(m.schema_version) + " " + media_type_name(m.media_type) + " " +
         printable(m.scope_digest) + " pin" + std::to_string(m.as_of_commit_seq) +
         " rows=" + std::to_string(m.row_count) + " cursor=" + cursor_text(m.row_cursor) +
         " next=" + cursor_text(m.next_row_cursor) + "}";
}

std::string describe(const SegmentFindKey& k) {
  return "{" + printable(k.partition) + " " + printable(k.log_epoch) + " " + printable(k.table) +
         " v" + std::to_string(k.schema_version) + " " + media_type_name(k.media_type) + " " +
         printable(k.scope_digest) + " pin" + std::to_string(k.as_of_commit_seq) + "}";
}

std::string describe(const SegmentPublication& p, std::int64_t origin_ms) {
  return describe(p.metadata) + " len=" + std::to_string(p.byte_length) +
         " created=" + relative(p.created_at_ms, origin_ms) +
         " expires=" + relative(p.expires_at_ms, origin_ms);
}

std::string describe(const SegmentRecord& r, std::int64_t origin_ms) {
  std::string text = r.segment_id.substr(0, 15) + "… top=" + describe(r.metadata) +
                     " len=" + std::to_string(r.byte_length) +
                     " created=" + relative(r.created_at_ms, origin_ms) +
                     " expires=" + relative(r.expires_at_ms, origin_ms) + " digests=[";
  for (std::size_t i = 0; i < r.scope_digests.size(); ++i) {
    text += (i ? "," : "") + printable(r.scope_digests[i]);
  }
  text += "]";
  for (const SegmentPublication& p : r.publications) text += "\n    pub " + describe(p, origin_ms);
  return text;
}

}  // namespace ssp::properties
