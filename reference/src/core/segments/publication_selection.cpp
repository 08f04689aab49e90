#include "ssp/segments/publication_selection.hpp"

#include <tuple>

namespace ssp {
namespace {

bool matches(const SegmentPublication& publication, const PublicationSelector& s) {
  const SegmentMetadata& m = publication.metadata;
  if (m.partition != s.partition || m.log_epoch != s.log_epoch ||
      m.scope_digest != s.scope_digest) {
    return false;
  }
  if (s.table && m.table != *s.table) return false;
  if (s.schema_version && m.schema_version != *s.schema_version) return false;
  if (s.media_type && m.media_type != *s.media_type) return false;
  if (s.as_of_commit_seq && m.as_of_commit_seq != *s.as_of_commit_seq) return false;
  if (s.row_cursor && m.row_cursor != *s.row_cursor) return false;
  if (s.live_at_ms && !publication.is_live(*s.live_at_ms)) return false;
  return true;
}

}  // namespace

PublicationSelector find_selector(const SegmentFindKey& key, std::int64_t now_ms) {
  PublicationSelector selector;
  selector.partition = key.partition;
  selector.log_epoch = key.log_epoch;
  selector.scope_digest = key.scope_digest;
  selector.table = key.table;
  selector.schema_version = key.schema_version;
  selector.media_type = key.media_type;
  selector.as_of_commit_seq = key.as_of_commit_seq;
  selector.row_cursor = std::optional<std::string>{};
  selector.live_at_ms = now_ms;
  return selector;
}

std::optional<SegmentPublication> select_segment_publication(const SegmentRecord& record,
                                                             const PublicationSelector& selector) {
  for (auto it = record.publications.rbegin(); it != record.publications.rend(); ++it) {
    if (matches(*it, selector)) return *it;
  }
  return std::nullopt;
}

SegmentRecord publication_record(const SegmentRecord& record,
                                 const SegmentPublication& publication) {
  SegmentRecord narrowed;
  narrowed.segment_id = record.segment_id;
  narrowed.metadata = publication.metadata;
  narrowed.scope_digests = {publication.metadata.scope_digest};
  narrowed.publications = {publication};
  narrowed.byte_length = publication.byte_length;
  narrowed.created_at_ms = publication.created_at_ms;
  narrowed.expires_at_ms = publication.expires_at_ms;
  return narrowed;
}

std::vector<SegmentPublication> publications_for_record(const SegmentRecord& record) {
  std::vector<SegmentPublication> publications;
  publications.reserve(record.scope_digests.size());
  for (const auto& digest : record.scope_digests) {
    SegmentPublication publication{record.metadata, record.byte_length, record.created_at_ms,
                                   record.expires_at_ms};
    publication.metadata.scope_digest = digest;
    publications.push_back(std::move(publication));
  }
  return publications;
}

std::optional<SegmentRecord> choose_find_result(const std::vector<SegmentRecord>& candidates,
                                                const SegmentFindKey& key, std::int64_t now_ms) {
  const PublicationSelector selector = find_selector(key, now_ms);
  const SegmentRecord* best_record = nullptr;
  std::optional<SegmentPublication> best;
  // D5: greatest expiry, then greatest creation, then smallest segment id.
  const auto rank = [](const SegmentPublication& p, const SegmentRecord& r) {
    return std::make_tuple(p.expires_at_ms, p.created_at_ms, std::string_view(r.segment_id));
  };
  for (const auto& record : candidates) {
    auto chosen = select_segment_publication(record, selector);
    if (!chosen) continue;
    if (best) {
      const auto [e1, c1, id1] = rank(*chosen, record);
      const auto [e2, c2, id2] = rank(*best, *best_record);
      const bool better = e1 != e2 ? e1 > e2 : c1 != c2 ? c1 > c2 : id1 < id2;
      if (!better) continue;
    }
    best = std::move(chosen);
    best_record = &record;
  }
  if (!best) return std::nullopt;
  return publication_record(*best_record, *best);
}

}  // namespace ssp
