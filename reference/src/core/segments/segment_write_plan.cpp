#include "ssp/segments/segment_write_plan.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string_view>

#include "ssp/segments/publication_key.hpp"

namespace ssp {
namespace {

SegmentWritePlan full_rewrite() {
  SegmentWritePlan plan;
  plan.full_rewrite = true;
  return plan;
}

// The publications of a list by key: (publication_key_hash, index) sorted,
// one allocation whatever their number (a put plans over every publication
// of its segment).
class KeyIndex {
 public:
  explicit KeyIndex(std::span<const SegmentPublication> publications)
      : publications_(publications) {
    entries_.reserve(publications.size());
    for (std::size_t i = 0; i < publications.size(); ++i) {
      entries_.emplace_back(publication_key_hash(publications[i].metadata), i);
    }
    std::sort(entries_.begin(), entries_.end());
  }

  // The indexes of the publications with `metadata`'s key, ascending.
  template <typename Visit>
  void each_with_key(const SegmentMetadata& metadata, std::size_t hash, Visit&& visit) const {
    auto at = std::lower_bound(entries_.begin(), entries_.end(), Entry{hash, 0});
    for (; at != entries_.end() && at->first == hash; ++at) {
      if (same_publication_key(publications_[at->second].metadata, metadata)) visit(at->second);
    }
  }

  // Whether two publications share a key.
  bool has_duplicate_keys() const {
    for (std::size_t k = 1; k < entries_.size(); ++k) {
      for (std::size_t l = k; l > 0 && entries_[l - 1].first == entries_[k].first; --l) {
        if (same_publication_key(publications_[entries_[l - 1].second].metadata,
                                 publications_[entries_[k].second].metadata)) {
          return true;
        }
      }
    }
    return false;
  }

 private:
  using Entry = std::pair<std::size_t, std::size_t>;
  std::span<const SegmentPublication> publications_;
  std::vector<Entry> entries_;
};

// `from` minus `minus`, as two sorted views.
std::vector<std::string> difference(const std::vector<std::string_view>& from,
                                    const std::vector<std::string_view>& minus) {
  std::vector<std::string_view> left;
  std::set_difference(from.begin(), from.end(), minus.begin(), minus.end(),
                      std::back_inserter(left));
  return {left.begin(), left.end()};
}

std::vector<std::string_view> sorted_views(std::span<const std::string> digests) {
  std::vector<std::string_view> views(digests.begin(), digests.end());
  std::sort(views.begin(), views.end());
  return views;
}

}  // namespace

SegmentWritePlan plan_segment_write(std::span<const std::string> stored_digests,
                                    std::span<const SegmentPublication> stored_publications,
                                    const SegmentRecord& merged) {
  const KeyIndex stored(stored_publications);
  const KeyIndex incoming(merged.publications);
  if (stored.has_duplicate_keys() || incoming.has_duplicate_keys()) return full_rewrite();

  SegmentWritePlan plan;
  std::vector<bool> kept(stored_publications.size(), false);
  bool kept_any = false;
  std::size_t last_kept = 0;
  for (std::size_t j = 0; j < merged.publications.size(); ++j) {
    const SegmentPublication& publication = merged.publications[j];
    std::optional<std::size_t> found;
    stored.each_with_key(publication.metadata, publication_key_hash(publication.metadata),
                         [&](std::size_t i) { found = i; });
    if (!found) {
      plan.appended.push_back(j);
      continue;
    }
    const std::size_t i = *found;
    // A kept row after a new one, or out of stored order.
    if (!plan.appended.empty() || (kept_any && i <= last_kept)) return full_rewrite();
    kept[i] = true;
    kept_any = true;
    last_kept = i;
    if (!(stored_publications[i] == publication)) plan.updated.emplace_back(i, j);
  }
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (!kept[i]) plan.removed.push_back(i);
  }

  const std::vector<std::string_view> before = sorted_views(stored_digests);
  const std::vector<std::string_view> after = sorted_views(merged.scope_digests);
  plan.removed_digests = difference(before, after);
  plan.added_digests = difference(after, before);
  return plan;
}

}  // namespace ssp
