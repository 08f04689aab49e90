#include "ssp/segments/segment_validation.hpp"

#include <string>

#include "ssp/encoding/json_text.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/values/safe_integer.hpp"

namespace ssp {
namespace {

void check_integer(const char* field, std::int64_t value) {
  if (!is_safe_integer(value)) {
    throw InvalidArgument(std::string("segment metadata: ") + field + " " + std::to_string(value) +
                          " is outside ±(2^53−1)");
  }
}

void check_string(const char* field, std::string_view value) {
  if (!is_well_formed_utf8(value)) {
    throw InvalidArgument(std::string("segment metadata: ") + field + " is not well-formed UTF-8");
  }
  if (value.find('\0') != std::string_view::npos) {
    throw InvalidArgument(std::string("segment metadata: ") + field + " contains U+0000");
  }
}

}  // namespace

void validate_metadata(const SegmentMetadata& m) {
  check_string("partition", m.partition);
  check_string("logEpoch", m.log_epoch);
  check_string("table", m.table);
  check_string("scopeDigest", m.scope_digest);
  if (m.row_cursor) check_string("rowCursor", *m.row_cursor);
  if (m.next_row_cursor) check_string("nextRowCursor", *m.next_row_cursor);
  check_integer("schemaVersion", m.schema_version);
  check_integer("asOfCommitSeq", m.as_of_commit_seq);
  check_integer("rowCount", m.row_count);
}

void validate_ttl(std::int64_t ttl_ms) {
  if (ttl_ms <= 0 || ttl_ms > kMaxSafeInteger) {
    throw InvalidArgument("segment store: ttlMs " + std::to_string(ttl_ms) +
                          " must be positive and at most 2^53−1");
  }
}

void validate_now(std::int64_t now_ms) {
  if (!is_safe_integer(now_ms)) {
    throw InvalidArgument("segment store: nowMs " + std::to_string(now_ms) +
                          " is outside ±(2^53−1)");
  }
}

}  // namespace ssp
