#include "ssp/segments/segment_merge.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include "ssp/segments/publication_key.hpp"

namespace ssp {
namespace {

// The primary digest first, then every other digest of `publications` in
// ascending byte order (DECISION D4).
std::vector<std::string> digest_view(const std::string& primary,
                                     const std::vector<SegmentPublication>& publications) {
  std::vector<std::string_view> others;
  others.reserve(publications.size());
  for (const auto& publication : publications) {
    if (publication.metadata.scope_digest != primary) {
      others.push_back(publication.metadata.scope_digest);
    }
  }
  std::sort(others.begin(), others.end());
  others.erase(std::unique(others.begin(), others.end()), others.end());
  std::vector<std::string> view;
  view.reserve(others.size() + 1);
  view.push_back(primary);
  view.insert(view.end(), others.begin(), others.end());
  return view;
}

}  // namespace

SegmentRecord merge_segment_record(const std::optional<SegmentRecord>& existing,
                                   const SegmentMetadata& metadata,
                                   const std::string& segment_id, std::int64_t byte_length,
                                   std::int64_t now_ms, std::int64_t ttl_ms) {
  const std::int64_t fresh_expiry = now_ms + ttl_ms;

  std::vector<SegmentPublication> publications;
  if (existing) {
    for (const auto& publication : existing->publications) {
      if (publication.is_live(now_ms)) publications.push_back(publication);  // prune (D1, D2)
    }
  }

  const auto same_grant = std::find_if(
      publications.begin(), publications.end(),
      [&](const SegmentPublication& p) { return same_publication_key(p.metadata, metadata); });
  if (same_grant != publications.end()) {
    same_grant->metadata = metadata;  // rowCount and cursors come from the put
    same_grant->byte_length = byte_length;
    same_grant->created_at_ms = std::min(same_grant->created_at_ms, now_ms);
    same_grant->expires_at_ms = std::max(same_grant->expires_at_ms, fresh_expiry);
  } else {
    publications.push_back(SegmentPublication{metadata, byte_length, now_ms, fresh_expiry});
  }

  SegmentRecord record;
  record.segment_id = segment_id;
  record.metadata = metadata;
  record.scope_digests = digest_view(metadata.scope_digest, publications);
  record.publications = std::move(publications);
  record.byte_length = byte_length;
  record.created_at_ms = existing ? std::min(existing->created_at_ms, now_ms) : now_ms;
  record.expires_at_ms = existing ? std::max(existing->expires_at_ms, fresh_expiry) : fresh_expiry;
  return record;
}

}  // namespace ssp
