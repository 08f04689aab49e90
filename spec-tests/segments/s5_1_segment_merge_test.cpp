// SSP2 §5.1 (0.22): identical bytes published again merge into one record
// whose publications keep their own contexts and lifetimes (segments.md §4,
// R10–R16, and the publication key of §1.5, R51).
#include <gmock/gmock.h>

#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/util/require_found.hpp"

namespace ssp::harness {
namespace {

using ::testing::UnorderedElementsAre;

// The publication of `record` whose scope digest is `digest`, absent if none. SPEC does
// not order a record's publications (oldest first is the reference's order, D4 table in
// docs/decisions.md), so tests look a grant up instead of indexing.
std::optional<SegmentPublication> publication_with_digest(const SegmentRecord& record,
                                                          const std::string& digest) {
  for (const SegmentPublication& p : record.publications) {
    if (p.metadata.scope_digest == digest) return p;
  }
  return std::nullopt;
}

class SegmentMerge : public SegmentStoreTest {};
SSP_ALL_BACKENDS(SegmentMerge);

TEST_P(SegmentMerge, R10_SameContextRePutKeepsFirstCreationAndExtendsExpiry) {
  record_spec("§5.1", "R10");
  const Bytes bytes = payload("image");
  const std::string id = store().put(base_metadata(), bytes, kNow).segment_id;
  EXPECT_EQ(store().put(base_metadata(), bytes, kNow + 5000).segment_id, id);

  const SegmentRecord record = require_found(store().get(id), "get(id)").record;
  EXPECT_EQ(record.created_at_ms, kNow);  // 0.21 refreshed it to NOW+5000
  EXPECT_EQ(record.expires_at_ms, kNow + 5000 + kTtl);
  EXPECT_EQ(record.scope_digests, std::vector<std::string>{"digest-a"});
  ASSERT_EQ(record.publications.size(), 1u);
  EXPECT_EQ(record.publications[0].created_at_ms, kNow);
  EXPECT_EQ(record.publications[0].expires_at_ms, kNow + 5000 + kTtl);
}

TEST_P(SegmentMerge, R11_TwoDigestsOverIdenticalBytesAreBothKeptAndFindable) {
  record_spec("§5.1", "R11");
  const Bytes bytes = payload("shared");
  const SegmentMetadata a = base_metadata();
  const SegmentMetadata b = with_digest(base_metadata(), "digest-b");
  const std::string id = store().put(a, bytes, kNow).segment_id;
  store().put(b, bytes, kNow + 5000);

  const SegmentRecord record = require_found(store().get(id), "get(id)").record;
  EXPECT_EQ(record.metadata.scope_digest, "digest-b");
  // As sets: their order is the reference's (D4; oldest first), SPEC orders neither.
  EXPECT_THAT(record.scope_digests, UnorderedElementsAre("digest-b", "digest-a"));
  EXPECT_EQ(record.created_at_ms, kNow);
  EXPECT_THAT(record.publications,
              UnorderedElementsAre(fresh_publication(a, bytes.size(), kNow),
                                   fresh_publication(b, bytes.size(), kNow + 5000)));

  const auto found_a = store().find(find_key_of(a), kNow + 5001);
  const auto found_b = store().find(find_key_of(b), kNow + 5001);
  ASSERT_TRUE(found_a);
  ASSERT_TRUE(found_b);
  EXPECT_EQ(found_a->segment_id, id);
  EXPECT_EQ(found_b->segment_id, id);
  EXPECT_FALSE(store().find(find_key_of(with_digest(a, "digest-c")), kNow + 5001));
}

TEST_P(SegmentMerge, R13_PutReturnsTheCallersOwnContextEvenWhenMerged) {
  record_spec("§5.1", "R13");
  const Bytes bytes = payload("page bytes");
  SegmentMetadata first = base_metadata();
  first.media_type = MediaType::rows;
  SegmentMetadata second = with_digest(first, "digest-b");
  second.row_count = 9;
  second.next_row_cursor = "row-9";
  store().put(first, bytes, kNow);

  const SegmentRecord returned = store().put(second, bytes, kNow + 1);
  // What the pull path builds a SEGMENT_REF from (§5.4) must be the caller's.
  EXPECT_EQ(returned.metadata, second);
  EXPECT_EQ(returned.byte_length, static_cast<std::int64_t>(bytes.size()));
  EXPECT_THAT(returned.scope_digests, UnorderedElementsAre("digest-b", "digest-a"));
  EXPECT_EQ(returned.publications.size(), 2u);  // the full record, not narrowed
}

TEST_P(SegmentMerge, R14_EachPublicationKeepsItsOwnLifetime) {
  record_spec("§5.1", "R14");
  const Bytes bytes = payload("pinned");
  const SegmentMetadata a = base_metadata();
  const SegmentMetadata b = with_pin(with_digest(base_metadata(), "digest-b"), 43);
  const std::string id = store().put(a, bytes, kNow).segment_id;
  store().put(b, bytes, kNow + kHour);
  store().put(b, bytes, kNow + 2 * kHour);

  const SegmentRecord record = require_found(store().get(id), "get(id)").record;
  ASSERT_EQ(record.publications.size(), 2u);
  const SegmentPublication of_a = require_found(publication_with_digest(record, "digest-a"), "a");
  const SegmentPublication of_b = require_found(publication_with_digest(record, "digest-b"), "b");
  EXPECT_EQ(of_a.expires_at_ms, kNow + kTtl);  // not extended by b
  EXPECT_EQ(of_b.created_at_ms, kNow + kHour);
  EXPECT_EQ(of_b.expires_at_ms, kNow + 2 * kHour + kTtl);

  const std::int64_t later = kNow + kTtl + 1'000'000;
  EXPECT_FALSE(store().find(find_key_of(a), later));
  const auto found = store().find(find_key_of(b), later);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->scope_digests, std::vector<std::string>{"digest-b"});
  EXPECT_EQ(found->publications.size(), 1u);
}

TEST_P(SegmentMerge, R15_APutChangesNoOtherPublication) {
  record_spec("§5.1", "R15");
  const Bytes bytes = payload("many contexts");
  const std::string id = store().put(base_metadata(), bytes, kNow).segment_id;
  store().put(with_digest(base_metadata(), "digest-b"), bytes, kNow + 10);
  store().put(with_pin(base_metadata(), 7), bytes, kNow + 20);
  const std::vector<SegmentPublication> before =
      require_found(store().get(id), "get(id)").record.publications;
  ASSERT_EQ(before.size(), 3u);

  // Re-publish the middle context, then append a fourth one.
  store().put(with_digest(base_metadata(), "digest-b"), bytes, kNow + 30);
  store().put(with_digest(base_metadata(), "digest-z"), bytes, kNow + 40);

  // Only the re-published grant changes (its expiry), the new one is added; compared as a
  // set, since SPEC does not order publications.
  std::vector<SegmentPublication> expected;
  for (SegmentPublication p : before) {
    if (p.metadata == with_digest(base_metadata(), "digest-b")) p.expires_at_ms = kNow + 30 + kTtl;
    expected.push_back(p);
  }
  expected.push_back(
      fresh_publication(with_digest(base_metadata(), "digest-z"), bytes.size(), kNow + 40));
  EXPECT_THAT(require_found(store().get(id), "get(id)").record.publications,
              ::testing::UnorderedElementsAreArray(expected));
}

TEST_P(SegmentMerge, R16_RowCountIsNotPartOfTheKeyButTheNextCursorIs) {
  record_spec("§5.1", "R16");
  const Bytes bytes = payload("counted");
  SegmentMetadata m = base_metadata();
  const std::string id = store().put(m, bytes, kNow).segment_id;
  m.row_count = 77;
  store().put(m, bytes, kNow + 1);
  auto publications = require_found(store().get(id), "get(id)").record.publications;
  ASSERT_EQ(publications.size(), 1u);
  EXPECT_EQ(publications[0].metadata.row_count, 77);

  m.next_row_cursor = "row-2";
  store().put(m, bytes, kNow + 2);
  publications = require_found(store().get(id), "get(id)").record.publications;
  ASSERT_EQ(publications.size(), 2u);
  std::vector<std::optional<std::string>> next_cursors;
  for (const SegmentPublication& p : publications) next_cursors.push_back(p.metadata.next_row_cursor);
  EXPECT_THAT(next_cursors, UnorderedElementsAre(std::nullopt, std::optional<std::string>("row-2")));
}

}  // namespace
}  // namespace ssp::harness
