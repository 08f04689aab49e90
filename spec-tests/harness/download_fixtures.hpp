// Shared values of the download and signed-URL tests: scope sets and base
// metadata published for them (its scope digest is theirs, as a pull would
// publish it).
#pragma once

#include <string>

#include "harness/segment_fixtures.hpp"
#include "ssp/scope_digest.hpp"

namespace ssp::harness {

inline const ScopeMap kScopesP1 = {{"project_id", {"p1"}}};
inline const ScopeMap kScopesP2 = {{"project_id", {"p2"}}};

// M (base_metadata) published for `scopes`, in `table` and `partition`.
inline SegmentMetadata published_for(const ScopeMap& scopes, const std::string& table = "tasks",
                                     const std::string& partition = "p") {
  SegmentMetadata m = base_metadata();
  m.table = table;
  m.partition = partition;
  m.scope_digest = scope_digest(scopes);
  return m;
}

}  // namespace ssp::harness
