// The admin counters (not in the protocol; segments.md §3.5, ADM-R48, R49).
#include "harness/fixtures/segment_fixtures.hpp"

namespace ssp::harness {
namespace {

class SegmentStats : public SegmentStoreTest {};
SSP_ALL_BACKENDS(SegmentStats);

TEST_P(SegmentStats, ADM_R48_AnEmptyStoreCountsNothing) {
  record_spec("§5.1", "ADM-R48");
  EXPECT_EQ(store().stats(), (SegmentStoreStats{0, 0, 0, 0}));
}

TEST_P(SegmentStats, ADM_R49_DistinctContentAddressesAreCountedExpiredIncluded) {
  record_spec("§5.1", "ADM-R49");
  const Bytes image = payload("image bytes");  // 11 bytes
  const Bytes page = payload("page");          // 4 bytes
  SegmentMetadata rows = base_metadata();
  rows.media_type = MediaType::rows;

  store().put(base_metadata(), image, kNow - 2 * kTtl);  // long expired, still counted
  store().put(rows, page, kNow);
  EXPECT_EQ(store().stats(), (SegmentStoreStats{2, 15, 1, 1}));

  // More publications of the same bytes add nothing.
  store().put(with_digest(base_metadata(), "digest-b"), image, kNow);
  store().put(with_digest(base_metadata(), "digest-c"), image, kNow);
  EXPECT_EQ(store().stats(), (SegmentStoreStats{2, 15, 1, 1}));

  // The media split follows the latest publisher of each address.
  store().put(with_digest(rows, "digest-d"), image, kNow + 1);
  EXPECT_EQ(store().stats(), (SegmentStoreStats{2, 15, 2, 0}));
}

}  // namespace
}  // namespace ssp::harness
