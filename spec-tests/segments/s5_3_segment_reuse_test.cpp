// §5.3 reuse: find answers a live, whole-table publication under the exact
// seven-field key, narrowed to that publication (segments.md §4, R31–R34).
#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/util/require_found.hpp"

namespace ssp::harness {
namespace {

class SegmentReuse : public SegmentStoreTest {};
SSP_ALL_BACKENDS(SegmentReuse);

// MUST level: a live sqlite image under its key is found, so the server does
// not rebuild it per client (§5.3). Rows pages are R31-022's.
TEST_P(SegmentReuse, R31_FindReturnsTheLiveWholeTablePublication) {
  record_spec("§5.3", "R31");
  const std::string id = store().put(base_metadata(), payload("image"), kNow).segment_id;
  const auto found = store().find(find_key_of(base_metadata()), kNow + 1);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->segment_id, id);
  EXPECT_EQ(found->metadata.row_count, 5);
  EXPECT_FALSE(found->metadata.row_cursor);
}

// 0.22 level: SPEC asks reuse of whole-table images only (§5.3; for rows
// pages building once is a SHOULD, §5.1). Upstream's find matches any null
// row cursor, so a rows first page with a next cursor is findable (Q10).
TEST_P(SegmentReuse, R31_022_ARowsFirstPageIsFindable) {
  record_spec("§5.3", "R31-022");
  SegmentMetadata first_page = base_metadata();
  first_page.media_type = MediaType::rows;
  first_page.next_row_cursor = "row-100";
  store().put(first_page, payload("first page"), kNow);
  const auto found_first_page = store().find(find_key_of(first_page), kNow + 1);
  ASSERT_TRUE(found_first_page);
  EXPECT_EQ(found_first_page->metadata.next_row_cursor, "row-100");
}

TEST_P(SegmentReuse, R32_FindRefusesExpiredPagedAndEveryOtherKey) {
  record_spec("§5.3", "R32");
  store().put(base_metadata(), payload("image"), kNow);
  SegmentMetadata paged = base_metadata();
  paged.table = "paged";
  paged.media_type = MediaType::rows;
  paged.row_cursor = "row-100";
  store().put(paged, payload("page 2"), kNow);

  const SegmentFindKey key = find_key_of(base_metadata());
  EXPECT_FALSE(store().find(key, kNow + kTtl)) << "expired: now == expiresAtMs";
  EXPECT_FALSE(store().find(find_key_of(paged), kNow + 1)) << "a page after the first";

  const auto variant = [&](auto change) {
    SegmentFindKey changed = key;
    change(changed);
    return store().find(changed, kNow + 1);
  };
  EXPECT_FALSE(variant([](SegmentFindKey& k) { k.scope_digest = "digest-b"; })) << "digest";
  EXPECT_FALSE(variant([](SegmentFindKey& k) { k.as_of_commit_seq = 43; })) << "pin";
  EXPECT_FALSE(variant([](SegmentFindKey& k) { k.media_type = MediaType::rows; })) << "media";
  EXPECT_FALSE(variant([](SegmentFindKey& k) { k.table = "docs"; })) << "table";
  EXPECT_FALSE(variant([](SegmentFindKey& k) { k.schema_version = 2; })) << "schema version";
  EXPECT_FALSE(variant([](SegmentFindKey& k) { k.partition = "p2"; })) << "partition";
  EXPECT_TRUE(variant([](SegmentFindKey&) {})) << "the unchanged key must match";
}

// MUST level (§2.1): a segment of another log epoch is never reused, even
// when every other field of the key matches. The other six fields, expiry
// and paging are R32's (upstream's find).
TEST_P(SegmentReuse, R32_EPOCH_FindNeverReusesAnotherEpoch) {
  record_spec("§2.1", "R32-EPOCH");
  store().put(base_metadata(), payload("image"), kNow);
  SegmentFindKey other_epoch = find_key_of(base_metadata());
  other_epoch.log_epoch = "epoch-2";
  EXPECT_FALSE(store().find(other_epoch, kNow + 1)) << "log epoch";
  EXPECT_TRUE(store().find(find_key_of(base_metadata()), kNow + 1))
      << "the unchanged key must match";
}

TEST_P(SegmentReuse, R33_FindNarrowsToTheMatchingPublication) {
  record_spec("§5.3", "R33");
  const Bytes bytes = payload("two grants");
  store().put(base_metadata(), bytes, kNow);
  store().put(with_digest(base_metadata(), "digest-b"), bytes, kNow + 5000);

  const auto found = store().find(find_key_of(base_metadata()), kNow + 6000);
  ASSERT_TRUE(found);
  ASSERT_EQ(found->publications.size(), 1u);
  EXPECT_EQ(found->scope_digests, std::vector<std::string>{"digest-a"});
  EXPECT_EQ(found->metadata.scope_digest, "digest-a");
  EXPECT_EQ(found->created_at_ms, kNow);         // the publication's own times,
  EXPECT_EQ(found->expires_at_ms, kNow + kTtl);  // not the record's envelope
}

TEST_P(SegmentReuse, R34_BetweenSegmentsTheLongestLivedWinsThenTheSmallestId) {
  record_spec("§5.3", "R34");
  const SegmentFindKey key = find_key_of(base_metadata());
  store().put(base_metadata(), payload("older"), kNow);
  const std::string newer = store().put(base_metadata(), payload("newer"), kNow + 10).segment_id;
  EXPECT_EQ(require_found(store().find(key, kNow + 11), "find(key)").segment_id,
            newer);  // D5: greatest expiry

  // Equal lifetimes: the smaller segment id wins, whatever the put order.
  SegmentMetadata tied = base_metadata();
  tied.table = "tied";
  const std::string x = store().put(tied, payload("x"), kNow).segment_id;
  const std::string y = store().put(tied, payload("y"), kNow).segment_id;
  EXPECT_EQ(require_found(store().find(find_key_of(tied), kNow + 1), "find(tied)").segment_id,
            std::min(x, y));
}

}  // namespace
}  // namespace ssp::harness
