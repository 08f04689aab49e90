// The inspection queries of SegmentInspector, in SQL that SQLite and
// PostgreSQL both accept over the upstream table names, and the part of an
// inspector that is only "run this id query".
#pragma once

#include <string>
#include <vector>

#include "ssp/segments/segment_inspector.hpp"

namespace ssp::sql {

inline constexpr const char* kAllSegmentBytes = "SELECT segment_id, bytes FROM sync_segments";

inline constexpr const char* kOrphanScopeIds =
    "SELECT DISTINCT sc.segment_id AS segment_id FROM sync_segment_scopes sc "
    "WHERE NOT EXISTS (SELECT 1 FROM sync_segments s WHERE s.segment_id = sc.segment_id)";

inline constexpr const char* kOrphanPublicationIds =
    "SELECT DISTINCT p.segment_id AS segment_id FROM sync_segment_publications p "
    "WHERE NOT EXISTS (SELECT 1 FROM sync_segments s WHERE s.segment_id = p.segment_id)";

inline constexpr const char* kLegacyIds =
    "SELECT s.segment_id AS segment_id FROM sync_segments s "
    "WHERE NOT EXISTS (SELECT 1 FROM sync_segment_publications p "
    "WHERE p.segment_id = s.segment_id)";

// The three id lists of SegmentInspector over the queries above; a backend
// supplies how to run a query whose result column is segment_id.
class IdQueryInspector : public SegmentInspector {
 public:
  std::vector<std::string> orphan_scope_ids() final { return ids(kOrphanScopeIds); }
  std::vector<std::string> orphan_publication_ids() final { return ids(kOrphanPublicationIds); }
  std::vector<std::string> legacy_ids() final { return ids(kLegacyIds); }

 protected:
  // The segment_id column of every row of `query_sql`, in one snapshot.
  virtual std::vector<std::string> ids(const char* query_sql) = 0;
};

}  // namespace ssp::sql
