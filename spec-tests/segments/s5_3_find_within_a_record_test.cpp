// §5.3 reuse decided inside one record: the lookup finds the record by a
// whole-table publication, and the shared rule must still pick the right
// publication of it. SQL backends look records up through a find index that
// holds null cursors only, so a paged publication in another record never
// reaches the rule there; in the same record it does, on every backend.
#include "harness/fixtures/segment_fixtures.hpp"

namespace ssp::harness {
namespace {

class SegmentFindWithinARecord : public SegmentStoreTest {};
SSP_ALL_BACKENDS(SegmentFindWithinARecord);

TEST_P(SegmentFindWithinARecord, R32_ANewerPagedPublicationOfTheSameBytesIsNeverFound) {
  record_spec("§5.3", "R32");
  const Bytes bytes = payload("one page, also the whole table");
  SegmentMetadata whole = base_metadata();
  whole.media_type = MediaType::rows;
  SegmentMetadata paged = whole;
  paged.row_cursor = "row-100";
  store().put(whole, bytes, kNow);
  store().put(paged, bytes, kNow + 1);  // same key but the cursor, appended last

  const auto found = store().find(find_key_of(whole), kNow + 2);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->metadata, whole);
  EXPECT_EQ(found->created_at_ms, kNow);
}

}  // namespace
}  // namespace ssp::harness
