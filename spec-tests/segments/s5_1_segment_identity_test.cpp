// SSP2 §5.1 identity, round trip and the content-address collision refusal
// (design notes segments.md §4, R1–R9).
#include <gmock/gmock.h>

#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/gates/granted_options.hpp"
#include "harness/util/require_found.hpp"
#include "ssp/errors/errors.hpp"

namespace ssp::harness {
namespace {

using ::testing::HasSubstr;

// A hasher that sends every payload to one address, so two different byte
// strings collide (testing only).
SegmentStoreOptions colliding_options(const CapabilityGrant& hasher) {
  SegmentStoreOptions options;
  inject_hasher(hasher, options, [](std::span<const std::uint8_t>) {
    return std::string("sha256:") + std::string(64, 'c');
  });
  return options;
}

class SegmentIdentity : public SegmentStoreTest {};
SSP_ALL_BACKENDS(SegmentIdentity);

// MUST level: only the content address, which every client checks the bytes
// against (§5.1). The record's length and times are R1-022's.
TEST_P(SegmentIdentity, R1_PutReturnsContentAddressLengthAndTimes) {
  record_spec("§5.1", "R1");
  const SegmentRecord record = store().put(base_metadata(), Bytes{1, 2, 3}, kNow);
  EXPECT_EQ(record.segment_id,
            "sha256:039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81");

  const SegmentRecord empty = store().put(base_metadata(), Bytes{}, kNow);
  EXPECT_EQ(empty.segment_id,
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const auto got_empty = store().get(empty.segment_id);
  ASSERT_TRUE(got_empty);
  EXPECT_TRUE(got_empty->bytes.empty());
}

// 0.22 level: SPEC pins the address, not the store's record. Upstream's put
// merges with the bytes' length, the caller's now and the store's TTL.
TEST_P(SegmentIdentity, R1_022_PutRecordsTheLengthAndTheTimes) {
  record_spec("§5.1", "R1-022");
  const SegmentRecord record = store().put(base_metadata(), Bytes{1, 2, 3}, kNow);
  EXPECT_EQ(record.byte_length, 3);
  EXPECT_EQ(record.created_at_ms, kNow);
  EXPECT_EQ(record.expires_at_ms, kNow + kTtl);

  const SegmentRecord empty = store().put(base_metadata(), Bytes{}, kNow);
  EXPECT_EQ(empty.byte_length, 0);
}

TEST_P(SegmentIdentity, R2_FirstPutRoundTripsRecordAndExactBytes) {
  record_spec("§5.1", "R2");
  const Bytes bytes = {0x00, 0xff, 0x10, 0x00, 0x7f};
  const SegmentRecord put = store().put(base_metadata(), bytes, kNow);
  const auto got = store().get(put.segment_id);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->bytes, bytes);
  EXPECT_EQ(got->record, put);
  EXPECT_EQ(put.metadata, base_metadata());
  EXPECT_EQ(put.scope_digests, std::vector<std::string>{"digest-a"});
  EXPECT_EQ(put.publications,
            std::vector<SegmentPublication>{fresh_publication(base_metadata(), 5, kNow)});
}

TEST_P(SegmentIdentity, R3_RowsRecordRoundTripsBothCursors) {
  record_spec("§5.1", "R3");
  SegmentMetadata paged = base_metadata();
  paged.media_type = MediaType::rows;
  paged.row_cursor = "row-100";
  paged.next_row_cursor = "row-200";
  const SegmentRecord put = store().put(paged, payload("page"), kNow);
  const auto got = store().get(put.segment_id);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->record.metadata.media_type, MediaType::rows);
  EXPECT_EQ(got->record.metadata.row_cursor, "row-100");
  EXPECT_EQ(got->record.metadata.next_row_cursor, "row-200");
  EXPECT_EQ(got->record.publications.at(0).metadata, paged);
}

TEST_P(SegmentIdentity, R4_UnknownAndMalformedIdsAreAbsent) {
  record_spec("§5.1", "R4");
  store().put(base_metadata(), payload("present"), kNow);
  EXPECT_FALSE(store().get("sha256:" + std::string(64, '0')));
  EXPECT_FALSE(store().get("../../etc/passwd"));
  EXPECT_FALSE(store().get("sha256:short"));
  EXPECT_FALSE(store().get("sha256:" + std::string(64, 'A')));  // upper-case hex is not an id
  EXPECT_FALSE(store().get(""));
}

TEST_P(SegmentIdentity, R5_RePuttingIdenticalBytesIsNeverACollision) {
  record_spec("§5.1", "R5");
  const Bytes bytes = payload("same");
  const std::string id = store().put(base_metadata(), bytes, kNow).segment_id;
  SegmentMetadata other = base_metadata();
  other.partition = "p2";
  other.table = "docs";
  other.media_type = MediaType::rows;
  EXPECT_EQ(store().put(other, bytes, kNow - 10 * kTtl).segment_id, id);
  EXPECT_EQ(store().put(base_metadata(), bytes, kNow + 10 * kTtl).segment_id, id);
}

TEST_P(SegmentIdentity, R6_CollisionUnderInjectedHasherIsRefusedAndChangesNothing) {
  record_spec("§5.1", "R6");
  SSP_GRANT_CAPABILITY(hasher, candidate(), Capability::injected_hasher);
  auto colliding = open(colliding_options(hasher));
  const SegmentRecord first = colliding->put(base_metadata(), payload("B1"), kNow);
  const SegmentStoreStats stats_before = colliding->stats();
  const std::string dump_before = has_sql() ? database().dump_segment_tables() : "";

  try {
    colliding->put(with_digest(base_metadata(), "digest-b"), payload("B2"), kNow + 1);
    FAIL() << "a put of different bytes under the same id must be refused (§5.1)";
  } catch (const SegmentCollision& collision) {
    EXPECT_EQ(collision.segment_id(), first.segment_id);  // its words are R6-REF's
  }

  const auto got = colliding->get(first.segment_id);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->bytes, payload("B1"));
  EXPECT_EQ(got->record, first);
  EXPECT_EQ(colliding->stats(), stats_before);
  if (has_sql()) {
    EXPECT_EQ(database().dump_segment_tables(), dump_before);
  }
}

// Reference level (docs/decisions.md, "error messages"): §5.1 asks for the
// refusal, not its words.
TEST_P(SegmentIdentity, R6_REF_TheCollisionMessageNamesTheId) {
  record_spec("§5.1", "R6-REF");
  SSP_GRANT_CAPABILITY(hasher, candidate(), Capability::injected_hasher);
  auto colliding = open(colliding_options(hasher));
  const SegmentRecord first = colliding->put(base_metadata(), payload("B1"), kNow);
  try {
    colliding->put(with_digest(base_metadata(), "digest-b"), payload("B2"), kNow + 1);
    FAIL() << "a put of different bytes under the same id must be refused (§5.1)";
  } catch (const SegmentCollision& collision) {
    EXPECT_THAT(collision.what(), HasSubstr("content-address collision"));
    EXPECT_THAT(collision.what(), HasSubstr(first.segment_id));
  }
}

TEST_P(SegmentIdentity, R7_CollisionWithCorruptedStoredBytesIsRefused) {
  record_spec("§5.1", "R7");
  SSP_REQUIRE_SQL("the corruption is an UPDATE of the stored bytes");
  const std::string id = store().put(base_metadata(), Bytes{1, 2, 3}, kNow).segment_id;
  corrupt_stored_bytes(id);
  EXPECT_THROW(store().put(with_digest(base_metadata(), "digest-b"), Bytes{1, 2, 3}, kNow + 1),
               SegmentCollision);
  const auto got = store().get(id);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->record.scope_digests, std::vector<std::string>{"digest-a"});
  ASSERT_EQ(got->record.publications.size(), 1u);
  EXPECT_EQ(got->record.publications[0].metadata.scope_digest, "digest-a");
}

TEST_P(SegmentIdentity, R8_CollisionCheckCoversExpiredEntries) {
  record_spec("§5.1", "R8");
  SSP_GRANT_CAPABILITY(hasher, candidate(), Capability::injected_hasher);
  auto colliding = open(colliding_options(hasher));
  const SegmentRecord expired = colliding->put(base_metadata(), payload("B1"), kNow - kTtl - 1);
  ASSERT_LT(expired.expires_at_ms, kNow);
  EXPECT_THROW(colliding->put(base_metadata(), payload("B2"), kNow), SegmentCollision);
  EXPECT_EQ(require_found(colliding->get(expired.segment_id), "get(expired.segment_id)").bytes,
            payload("B1"));
}

TEST_P(SegmentIdentity, R9_GetDoesNotReHashStoredBytes) {
  record_spec("§5.1", "R9");
  SSP_REQUIRE_SQL("the corruption is an UPDATE of the stored bytes");
  const std::string id = store().put(base_metadata(), Bytes{1, 2, 3}, kNow).segment_id;
  corrupt_stored_bytes(id);
  const auto got = store().get(id);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->bytes, (Bytes{2, 3}));
}

}  // namespace
}  // namespace ssp::harness
