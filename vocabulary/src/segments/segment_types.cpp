#include "ssp/segments/segment_types.hpp"

namespace ssp {

const char* media_type_name(MediaType type) {
  return type == MediaType::sqlite ? "sqlite" : "rows";
}

SegmentFindKey find_key_of(const SegmentMetadata& m) {
  return SegmentFindKey{m.partition,    m.log_epoch,    m.table,           m.schema_version,
                        m.media_type,   m.scope_digest, m.as_of_commit_seq};
}

}  // namespace ssp
