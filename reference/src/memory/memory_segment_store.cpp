#include "ssp/memory/memory_segment_store.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/segments/segment_store_base.hpp"
#include "ssp/segments/segment_write_plan.hpp"

namespace ssp {
namespace {

// find must be a lookup: an index from the six fields find_candidates
// matches to the ids with a publication under them, whatever its media
// type, cursor or expiry (the shared rule decides those).
using FindIndexKey =
    std::tuple<std::string, std::string, std::string, std::int64_t, std::string, std::int64_t>;

FindIndexKey index_key(const SegmentFindKey& k) {
  return {k.partition, k.log_epoch, k.table, k.schema_version, k.scope_digest, k.as_of_commit_seq};
}

// Everything a memory store holds. The store's lock (SegmentStoreBase)
// guards it.
struct MemoryState {
  std::map<std::string, StoredSegment> entries;
  // Per find key, the ids with a publication under it and how many of their
  // publications are (a record may hold several under one key: other
  // cursors, media types or row counts).
  std::map<FindIndexKey, std::map<std::string, int>> find_index;
  SegmentStoreStats stats;

  // Stores `record`, with `bytes` when its id is new, and keeps the index
  // and the counters in step. The index changes only by the publications
  // that the plan removes or appends (an update in place keeps its key).
  void store(SegmentRecord record, const Bytes& bytes) {
    const auto found = entries.find(record.segment_id);
    if (found == entries.end()) {
      ++stats.count;
      stats.bytes += record.byte_length;
      for (const auto& p : record.publications) index(record.segment_id, p, +1);
      count_media(record.metadata.media_type, +1);
      const std::string id = record.segment_id;
      entries.emplace(id, StoredSegment{std::move(record), bytes});
      return;
    }
    SegmentRecord& stored = found->second.record;
    const SegmentWritePlan plan =
        plan_segment_write(stored.scope_digests, stored.publications, record);
    if (plan.full_rewrite) {
      for (const auto& p : stored.publications) index(stored.segment_id, p, -1);
      for (const auto& p : record.publications) index(record.segment_id, p, +1);
    } else {
      for (const std::size_t i : plan.removed) index(stored.segment_id, stored.publications[i], -1);
      for (const std::size_t j : plan.appended) index(record.segment_id, record.publications[j], +1);
    }
    count_media(stored.metadata.media_type, -1);
    count_media(record.metadata.media_type, +1);
    stored = std::move(record);
  }

 private:
  // The media split follows the top-level media type, which a re-put can change.
  void count_media(MediaType type, int delta) {
    (type == MediaType::sqlite ? stats.sqlite_segments : stats.rows_segments) += delta;
  }

  void index(const std::string& id, const SegmentPublication& p, int delta) {
    const FindIndexKey key = index_key(find_key_of(p.metadata));
    auto& ids = find_index[key];
    if ((ids[id] += delta) <= 0) ids.erase(id);
    if (ids.empty()) find_index.erase(key);
  }
};

// Writes are staged and applied at commit, so a put failing before commit
// (a hook, a collision) leaves the state untouched, as a rollback would.
class MemoryPut final : public SegmentPutTransaction {
 public:
  MemoryPut(MemoryState& state, std::string segment_id)
      : state_(state), segment_id_(std::move(segment_id)) {}

  std::optional<SegmentRecord> read() override {
    const auto found = state_.entries.find(segment_id_);
    if (found == state_.entries.end()) return std::nullopt;
    return found->second.record;
  }

  bool stored_bytes_equal(std::span<const std::uint8_t> bytes) override {
    const Bytes& stored = state_.entries.at(segment_id_).bytes;
    return std::equal(bytes.begin(), bytes.end(), stored.begin(), stored.end());
  }

  void write(const SegmentRecord& record, std::span<const std::uint8_t> bytes) override {
    staged_record_ = record;
    if (!state_.entries.contains(segment_id_)) staged_bytes_.assign(bytes.begin(), bytes.end());
  }

  void commit() override {
    if (staged_record_) state_.store(std::move(*staged_record_), staged_bytes_);
  }

 private:
  MemoryState& state_;
  const std::string segment_id_;
  std::optional<SegmentRecord> staged_record_;
  Bytes staged_bytes_;
};

class MemorySegmentStore final : public SegmentStoreBase {
 public:
  explicit MemorySegmentStore(SegmentStoreOptions options)
      : SegmentStoreBase("MemorySegmentStore", std::move(options)) {}

 private:
  std::unique_ptr<SegmentPutTransaction> begin_put(const std::string& segment_id) override {
    return std::make_unique<MemoryPut>(state_, segment_id);
  }

  std::optional<StoredSegment> read_segment(const std::string& segment_id) override {
    const auto found = state_.entries.find(segment_id);
    if (found == state_.entries.end()) return std::nullopt;
    return found->second;
  }

  std::vector<SegmentRecord> find_candidates(const SegmentFindKey& key) override {
    std::vector<SegmentRecord> candidates;
    const auto ids = state_.find_index.find(index_key(key));
    if (ids == state_.find_index.end()) return candidates;
    for (const auto& [id, count] : ids->second) {
      candidates.push_back(state_.entries.at(id).record);
    }
    return candidates;
  }

  SegmentStoreStats read_stats() override { return state_.stats; }

  MemoryState state_;
};

}  // namespace

std::unique_ptr<SegmentStore> make_memory_segment_store(SegmentStoreOptions options) {
  return std::make_unique<MemorySegmentStore>(std::move(options));
}

}  // namespace ssp
