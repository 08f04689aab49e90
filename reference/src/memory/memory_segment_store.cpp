#include "ssp/memory_segment_store.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#include "ssp/publication_selection.hpp"
#include "ssp/segment_id.hpp"
#include "ssp/segment_put.hpp"

namespace ssp {
namespace {

// find() must be a lookup: an index from a find key to the ids that have a
// publication under it (whatever its cursor or expiry; the rules filter).
using FindIndexKey = std::tuple<std::string, std::string, std::string, std::int64_t, MediaType,
                                std::string, std::int64_t>;

FindIndexKey index_key(const SegmentFindKey& k) {
  return {k.partition, k.log_epoch, k.table, k.schema_version,
          k.media_type, k.scope_digest, k.as_of_commit_seq};
}

class MemorySegmentStore final : public SegmentStore {
 public:
  explicit MemorySegmentStore(SegmentStoreOptions options)
      : options_(validated(std::move(options))) {}

  SegmentRecord put(const SegmentMetadata& metadata, std::span<const std::uint8_t> bytes,
                    std::int64_t now_ms) override {
    validate_put(metadata, now_ms);
    const std::string id = options_.hasher(bytes);
    hook(PutHookPoint::before_begin);
    std::lock_guard lock(mutex_);
    const auto found = entries_.find(id);
    std::optional<SegmentRecord> existing;
    bool bytes_equal = false;
    if (found != entries_.end()) {
      existing = found->second.record;
      bytes_equal = std::equal(bytes.begin(), bytes.end(), found->second.bytes.begin(),
                               found->second.bytes.end());
    }
    hook(PutHookPoint::after_read);
    SegmentRecord record = decide_put(existing, bytes_equal, "MemorySegmentStore", metadata, id,
                                      static_cast<std::int64_t>(bytes.size()), now_ms,
                                      options_.ttl_ms);
    hook(PutHookPoint::before_commit);
    if (existing) unindex(*existing);
    index(record);
    if (found == entries_.end()) {
      ++stats_.count;
      stats_.bytes += record.byte_length;
      entries_.emplace(id, StoredSegment{record, Bytes(bytes.begin(), bytes.end())});
    } else {
      count_media(existing->metadata.media_type, -1);
      found->second.record = record;
    }
    count_media(record.metadata.media_type, +1);
    return record;
  }

  std::optional<StoredSegment> get(const std::string& segment_id) override {
    if (!is_well_formed_segment_id(segment_id)) return std::nullopt;
    std::lock_guard lock(mutex_);
    const auto found = entries_.find(segment_id);
    if (found == entries_.end()) return std::nullopt;
    return found->second;
  }

  std::optional<SegmentRecord> find(const SegmentFindKey& key, std::int64_t now_ms) override {
    std::lock_guard lock(mutex_);
    const auto ids = find_index_.find(index_key(key));
    if (ids == find_index_.end()) return std::nullopt;
    std::vector<SegmentRecord> candidates;
    for (const auto& id : ids->second) candidates.push_back(entries_.at(id).record);
    return choose_find_result(candidates, key, now_ms);
  }

  SegmentStoreStats stats() override {
    std::lock_guard lock(mutex_);
    return stats_;
  }

 private:
  void hook(PutHookPoint point) const {
    if (options_.put_hook) options_.put_hook(point);
  }

  // The media split follows the top-level media type, which a re-put can change.
  void count_media(MediaType type, int delta) {
    (type == MediaType::sqlite ? stats_.sqlite_segments : stats_.rows_segments) += delta;
  }

  void index(const SegmentRecord& record) {
    for (const auto& p : record.publications) {
      find_index_[index_key(find_key_of(p.metadata))].insert(record.segment_id);
    }
  }

  void unindex(const SegmentRecord& record) {
    for (const auto& p : record.publications) {
      const auto ids = find_index_.find(index_key(find_key_of(p.metadata)));
      if (ids == find_index_.end()) continue;
      ids->second.erase(record.segment_id);
      if (ids->second.empty()) find_index_.erase(ids);
    }
  }

  const SegmentStoreOptions options_;
  std::mutex mutex_;
  std::map<std::string, StoredSegment> entries_;
  std::map<FindIndexKey, std::set<std::string>> find_index_;
  SegmentStoreStats stats_;
};

}  // namespace

std::unique_ptr<SegmentStore> make_memory_segment_store(SegmentStoreOptions options) {
  return std::make_unique<MemorySegmentStore>(std::move(options));
}

}  // namespace ssp
