#include "ssp/segments/segment_validation.hpp"

#include <string>

#include "ssp/encoding/json_text.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/values/safe_integer.hpp"

namespace ssp {
namespace {

// `what` names the value a field belongs to: "segment metadata", "find key".
void check_integer(std::string_view what, const char* field, std::int64_t value) {
  if (!is_safe_integer(value)) {
    throw InvalidArgument(std::string(what) + ": " + field + " " + std::to_string(value) +
                          " is outside ±(2^53−1)");
  }
}

void check_string(std::string_view what, const char* field, std::string_view value) {
  if (!is_well_formed_utf8(value)) {
    throw InvalidArgument(std::string(what) + ": " + field + " is not well-formed UTF-8");
  }
  if (value.find('\0') != std::string_view::npos) {
    throw InvalidArgument(std::string(what) + ": " + field + " contains U+0000");
  }
}

}  // namespace

void validate_metadata(const SegmentMetadata& m) {
  constexpr std::string_view kWhat = "segment metadata";
  check_string(kWhat, "partition", m.partition);
  check_string(kWhat, "logEpoch", m.log_epoch);
  check_string(kWhat, "table", m.table);
  check_string(kWhat, "scopeDigest", m.scope_digest);
  if (m.row_cursor) check_string(kWhat, "rowCursor", *m.row_cursor);
  if (m.next_row_cursor) check_string(kWhat, "nextRowCursor", *m.next_row_cursor);
  check_integer(kWhat, "schemaVersion", m.schema_version);
  check_integer(kWhat, "asOfCommitSeq", m.as_of_commit_seq);
  check_integer(kWhat, "rowCount", m.row_count);
}

void validate_find_key(const SegmentFindKey& key) {
  constexpr std::string_view kWhat = "find key";
  check_string(kWhat, "partition", key.partition);
  check_string(kWhat, "logEpoch", key.log_epoch);
  check_string(kWhat, "table", key.table);
  check_string(kWhat, "scopeDigest", key.scope_digest);
  check_integer(kWhat, "schemaVersion", key.schema_version);
  check_integer(kWhat, "asOfCommitSeq", key.as_of_commit_seq);
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
