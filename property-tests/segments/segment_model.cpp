#include "segment_model.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "harness/util/content_address.hpp"

namespace ssp::properties {

std::string model_content_address(const Bytes& bytes) {
  return harness::sha256_content_address(bytes);
}

bool same_grant(const SegmentMetadata& a, const SegmentMetadata& b) {
  SegmentMetadata a_without_count = a;
  a_without_count.row_count = b.row_count;
  return a_without_count == b;
}

bool answers_find(const SegmentPublication& publication, const SegmentFindKey& key,
                  std::int64_t now_ms) {
  const SegmentMetadata& m = publication.metadata;
  return m.partition == key.partition && m.log_epoch == key.log_epoch && m.table == key.table &&
         m.schema_version == key.schema_version && m.media_type == key.media_type &&
         m.scope_digest == key.scope_digest && m.as_of_commit_seq == key.as_of_commit_seq &&
         !m.row_cursor.has_value() && publication.expires_at_ms > now_ms;
}

SegmentRecord in_canonical_order(SegmentRecord record) {
  std::sort(record.scope_digests.begin(), record.scope_digests.end());
  const auto fields = [](const SegmentPublication& p) {
    const SegmentMetadata& m = p.metadata;
    return std::tie(m.partition, m.log_epoch, m.table, m.schema_version, m.media_type,
                    m.scope_digest, m.as_of_commit_seq, m.row_count, m.row_cursor,
                    m.next_row_cursor, p.byte_length, p.created_at_ms, p.expires_at_ms);
  };
  std::sort(record.publications.begin(), record.publications.end(),
            [&fields](const SegmentPublication& a, const SegmentPublication& b) {
              return fields(a) < fields(b);
            });
  return record;
}

bool SegmentStoreModel::collides(const std::string& segment_id, const Bytes& bytes) const {
  const auto found = entries_.find(segment_id);
  return found != entries_.end() && found->second.bytes != bytes;
}

std::optional<SegmentRecord> SegmentStoreModel::put(const std::string& segment_id,
                                                    const SegmentMetadata& metadata,
                                                    const Bytes& bytes, std::int64_t now_ms) {
  if (collides(segment_id, bytes)) return std::nullopt;
  const std::int64_t expiry = now_ms + ttl_ms_;
  const auto byte_length = static_cast<std::int64_t>(bytes.size());

  const auto [position, is_new] = entries_.try_emplace(segment_id);
  Entry& entry = position->second;
  if (is_new) {
    entry.bytes = bytes;
    entry.byte_length = byte_length;
    entry.first_seen_ms = now_ms;
    entry.last_expiry_ms = expiry;
  } else {
    entry.first_seen_ms = std::min(entry.first_seen_ms, now_ms);
    entry.last_expiry_ms = std::max(entry.last_expiry_ms, expiry);
  }

  // D1, D2: every grant expired at now_ms is forgotten first, including an
  // expired one under the incoming key, which then comes back as a new grant.
  std::erase_if(entry.publications,
                [now_ms](const SegmentPublication& p) { return p.expires_at_ms <= now_ms; });

  bool republished = false;
  for (SegmentPublication& publication : entry.publications) {
    if (!same_grant(publication.metadata, metadata)) continue;
    publication = SegmentPublication{metadata, byte_length,
                                     std::min(publication.created_at_ms, now_ms),
                                     std::max(publication.expires_at_ms, expiry)};
    republished = true;
  }
  if (!republished) {
    entry.publications.push_back(SegmentPublication{metadata, byte_length, now_ms, expiry});
  }
  entry.latest = metadata;
  return record_of(segment_id, entry);
}

void SegmentStoreModel::corrupt(const std::string& segment_id) {
  Bytes& bytes = entries_.at(segment_id).bytes;
  if (bytes.empty()) throw std::logic_error("SegmentStoreModel::corrupt: no byte to drop");
  bytes.erase(bytes.begin());
}

std::optional<StoredSegment> SegmentStoreModel::get(const std::string& segment_id) const {
  const auto found = entries_.find(segment_id);
  if (found == entries_.end()) return std::nullopt;
  return StoredSegment{record_of(segment_id, found->second), found->second.bytes};
}

std::vector<SegmentRecord> SegmentStoreModel::find_answers(const SegmentFindKey& key,
                                                           std::int64_t now_ms) const {
  std::vector<SegmentRecord> answers;
  for (const auto& [id, entry] : entries_) {
    for (const SegmentPublication& publication : entry.publications) {
      if (!answers_find(publication, key, now_ms)) continue;
      SegmentRecord narrowed;
      narrowed.segment_id = id;
      narrowed.metadata = publication.metadata;
      narrowed.scope_digests = {publication.metadata.scope_digest};
      narrowed.publications = {publication};
      narrowed.byte_length = publication.byte_length;
      narrowed.created_at_ms = publication.created_at_ms;
      narrowed.expires_at_ms = publication.expires_at_ms;
      answers.push_back(std::move(narrowed));
    }
  }
  return answers;
}

SegmentStoreStats SegmentStoreModel::stats() const {
  SegmentStoreStats stats;
  for (const auto& [id, entry] : entries_) {
    ++stats.count;
    stats.bytes += entry.byte_length;
    ++(entry.latest.media_type == MediaType::sqlite ? stats.sqlite_segments
                                                    : stats.rows_segments);
  }
  return stats;
}

std::vector<std::string> SegmentStoreModel::ids() const {
  std::vector<std::string> ids;
  for (const auto& [id, entry] : entries_) ids.push_back(id);
  return ids;
}

SegmentRecord SegmentStoreModel::record_of(const std::string& segment_id, const Entry& entry) {
  // The latest publisher's digest, then the other live grants' digests in
  // ascending byte order, each once (the reference's order, D4; the property
  // compares digest lists in_canonical_order, as SPEC orders none).
  const std::string& primary = entry.latest.scope_digest;
  std::set<std::string> others;
  for (const SegmentPublication& publication : entry.publications) {
    if (publication.metadata.scope_digest != primary) {
      others.insert(publication.metadata.scope_digest);
    }
  }
  SegmentRecord record;
  record.segment_id = segment_id;
  record.metadata = entry.latest;
  record.scope_digests = {primary};
  record.scope_digests.insert(record.scope_digests.end(), others.begin(), others.end());
  record.publications = entry.publications;
  record.byte_length = entry.byte_length;
  record.created_at_ms = entry.first_seen_ms;
  record.expires_at_ms = entry.last_expiry_ms;
  return record;
}

}  // namespace ssp::properties
