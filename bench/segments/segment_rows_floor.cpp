#include "segment_rows_floor.hpp"

#include <algorithm>

#include "ssp/segments/segment_id.hpp"
#include "ssp/segments/segment_store_options.hpp"

namespace ssp::bench {

FloorPut floor_put(const SegmentMetadata& metadata, std::span<const std::uint8_t> bytes,
                   std::int64_t now_ms) {
  const auto byte_length = static_cast<std::int64_t>(bytes.size());
  return FloorPut{sha256_segment_id(bytes),
                  SegmentPublication{metadata, byte_length, now_ms,
                                     now_ms + SegmentStoreOptions{}.ttl_ms}};
}

SegmentRecord floor_answer(std::string segment_id, std::vector<SegmentPublication> publications) {
  SegmentRecord record;
  record.segment_id = std::move(segment_id);
  const SegmentPublication& latest = publications.back();
  record.metadata = latest.metadata;
  record.byte_length = latest.byte_length;
  record.created_at_ms = publications.front().created_at_ms;
  record.expires_at_ms = latest.expires_at_ms;
  record.scope_digests.reserve(publications.size());
  record.scope_digests.push_back(latest.metadata.scope_digest);
  for (std::size_t i = 0; i + 1 < publications.size(); ++i) {
    record.scope_digests.push_back(publications[i].metadata.scope_digest);
  }
  record.publications = std::move(publications);
  return record;
}

std::string floor_get_statement(std::string_view id_parameter, std::string_view position_column) {
  const std::string columns =
      "partition, log_epoch, tbl, schema_version, media_type, scope_digest, as_of_commit_seq, "
      "row_count, row_cursor, next_row_cursor, byte_length, created_at_ms, expires_at_ms";
  const std::string where = " WHERE segment_id = " + std::string(id_parameter);
  return "SELECT 0 AS part, " + columns + ", bytes, CAST(NULL AS BIGINT) AS position " +
         "FROM sync_segments" + where +
         " UNION ALL SELECT 1, NULL, NULL, NULL, NULL, NULL, scope_digest, NULL, NULL, NULL, "
         "NULL, NULL, NULL, NULL, NULL, NULL FROM sync_segment_scopes" +
         where + " UNION ALL SELECT 2, " + columns + ", NULL, " + std::string(position_column) +
         " FROM sync_segment_publications" + where;
}

void FloorGetRows::top(const SegmentPublication& top, std::span<const std::uint8_t> bytes) {
  found_ = true;
  record_.metadata = top.metadata;
  record_.byte_length = top.byte_length;
  record_.created_at_ms = top.created_at_ms;
  record_.expires_at_ms = top.expires_at_ms;
  bytes_.assign(bytes.begin(), bytes.end());
}

std::optional<StoredSegment> FloorGetRows::take(const std::string& id) {
  if (!found_) return std::nullopt;
  record_.segment_id = id;
  std::sort(publications_.begin(), publications_.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  record_.publications.reserve(publications_.size());
  for (auto& entry : publications_) record_.publications.push_back(std::move(entry.second));
  return StoredSegment{std::move(record_), std::move(bytes_)};
}

}  // namespace ssp::bench
