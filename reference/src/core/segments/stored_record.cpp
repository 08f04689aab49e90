#include "ssp/segments/stored_record.hpp"

#include <algorithm>

#include "ssp/segments/publication_selection.hpp"

namespace ssp {

SegmentRecord assemble_stored_record(SegmentRecord top, std::vector<std::string> stored_digests,
                                     std::vector<SegmentPublication> stored_publications) {
  const std::string& primary = top.metadata.scope_digest;
  std::erase(stored_digests, primary);
  std::sort(stored_digests.begin(), stored_digests.end());
  stored_digests.erase(std::unique(stored_digests.begin(), stored_digests.end()),
                       stored_digests.end());
  top.scope_digests = {primary};
  top.scope_digests.insert(top.scope_digests.end(), stored_digests.begin(), stored_digests.end());
  top.publications = stored_publications.empty() ? publications_for_record(top)
                                                 : std::move(stored_publications);
  return top;
}

}  // namespace ssp
