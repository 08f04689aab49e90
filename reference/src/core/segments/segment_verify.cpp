#include "ssp/segments/segment_verify.hpp"

#include <algorithm>

namespace ssp {
namespace {

std::vector<std::string> sorted_unique(std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace

bool SegmentVerification::corrupt() const {
  return !mismatched_ids.empty() || !orphan_scope_ids.empty() || !orphan_publication_ids.empty();
}

SegmentVerification verify_segments(SegmentInspector& inspector, const ContentHasher& hasher) {
  SegmentVerification result;
  std::vector<std::string> mismatched;
  inspector.for_each_segment([&](std::string_view id, std::span<const std::uint8_t> bytes) {
    ++result.segments_checked;
    if (hasher(bytes) != id) mismatched.emplace_back(id);
  });
  result.mismatched_ids = sorted_unique(std::move(mismatched));
  result.orphan_scope_ids = sorted_unique(inspector.orphan_scope_ids());
  result.orphan_publication_ids = sorted_unique(inspector.orphan_publication_ids());
  result.legacy_ids = sorted_unique(inspector.legacy_ids());
  return result;
}

}  // namespace ssp
