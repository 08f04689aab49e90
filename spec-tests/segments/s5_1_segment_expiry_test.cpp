// Segments are cache entries (§5.1): every publication has its own lifetime,
// and a put forgets the expired publications of the record it writes
// (prune-on-put, DECISIONS D1–D3; segments.md §4, R22–R27, store half of R29).
#include <cstdint>
#include <optional>

#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/util/require_found.hpp"

namespace ssp::harness {
namespace {

class SegmentExpiry : public SegmentStoreTest {};
SSP_ALL_BACKENDS(SegmentExpiry);

SegmentMetadata pin(std::int64_t as_of_commit_seq) {
  SegmentMetadata m = base_metadata();
  m.as_of_commit_seq = as_of_commit_seq;
  return m;
}

// The pin a download chooses among a record's publications (§5.5; the
// selection half of R29), modelled here rather than asked of the reference:
// the highest as_of_commit_seq among those still live at `at_ms`, or nothing.
std::optional<std::int64_t> newest_live_pin(const SegmentRecord& record, std::int64_t at_ms) {
  std::optional<std::int64_t> newest;
  for (const auto& publication : record.publications) {
    if (publication.expires_at_ms <= at_ms) continue;
    if (!newest || publication.metadata.as_of_commit_seq > *newest) {
      newest = publication.metadata.as_of_commit_seq;
    }
  }
  return newest;
}

TEST_P(SegmentExpiry, R22_PutPrunesExpiredPublicationsAndExtendsNoOther) {
  record_spec("§5.1", "R22");
  const Bytes bytes = payload("pins");
  const std::string id = store().put(pin(1), bytes, kNow).segment_id;
  store().put(pin(2), bytes, kNow + kHour);
  store().put(pin(3), bytes, kNow + kTtl + 1);

  const auto publications = require_found(store().get(id), "get(id)").record.publications;
  ASSERT_EQ(publications.size(), 2u);
  EXPECT_EQ(publications[0].metadata.as_of_commit_seq, 2);
  EXPECT_EQ(publications[0].expires_at_ms, kNow + kHour + kTtl);  // unchanged
  EXPECT_EQ(publications[1].metadata.as_of_commit_seq, 3);
  for (const auto& publication : publications) EXPECT_NE(publication.expires_at_ms, kNow + kTtl);
}

TEST_P(SegmentExpiry, R23_APublicationExpiringExactlyNowIsPruned) {
  record_spec("§5.1", "R23");
  const Bytes bytes = payload("boundary");
  const std::string id = store().put(pin(1), bytes, kNow).segment_id;
  store().put(pin(2), bytes, kNow + kTtl);  // now == pin 1's expiresAtMs (D1)
  const auto publications = require_found(store().get(id), "get(id)").record.publications;
  ASSERT_EQ(publications.size(), 1u);
  EXPECT_EQ(publications[0].metadata.as_of_commit_seq, 2);

  // One millisecond earlier the publication is still live and kept.
  const Bytes other = payload("boundary - 1");
  const std::string kept = store().put(pin(1), other, kNow).segment_id;
  store().put(pin(2), other, kNow + kTtl - 1);
  EXPECT_EQ(require_found(store().get(kept), "get(kept)").record.publications.size(), 2u);
}

TEST_P(SegmentExpiry, R24_DigestViewAndScopeRowsFollowPruning) {
  record_spec("§5.1", "R24");
  const Bytes bytes = payload("pruned digest");
  const std::string id = store().put(base_metadata(), bytes, kNow).segment_id;
  store().put(with_digest(base_metadata(), "digest-b"), bytes, kNow + kTtl + 1);

  const SegmentRecord record = require_found(store().get(id), "get(id)").record;
  ASSERT_EQ(record.publications.size(), 1u);
  EXPECT_EQ(record.publications[0].metadata.scope_digest, "digest-b");
  EXPECT_EQ(record.scope_digests, std::vector<std::string>{"digest-b"});
  if (has_sql()) {
    EXPECT_EQ(database().query_column("SELECT scope_digest FROM sync_segment_scopes "
                                      "WHERE segment_id = '" + id + "'"),
              std::vector<std::string>{"digest-b"});
  }
}

TEST_P(SegmentExpiry, R25_AnExpiredSameContextIsForgottenThenAppendedFresh) {
  record_spec("§5.1", "R25");
  const Bytes bytes = payload("same context again");
  const std::string id = store().put(base_metadata(), bytes, kNow).segment_id;
  const std::int64_t again = kNow + kTtl + 5;
  store().put(base_metadata(), bytes, again);

  const SegmentRecord record = require_found(store().get(id), "get(id)").record;
  ASSERT_EQ(record.publications.size(), 1u);
  EXPECT_EQ(record.publications[0].created_at_ms, again);  // D2: not the old creation
  EXPECT_EQ(record.publications[0].expires_at_ms, again + kTtl);
  EXPECT_EQ(record.created_at_ms, kNow);  // D3-A: the record keeps its first sighting
}

TEST_P(SegmentExpiry, R26_PruningTouchesOnlyTheRecordBeingPut) {
  record_spec("§5.1", "R26");
  const Bytes untouched = payload("untouched");
  const Bytes written = payload("written");
  const std::string untouched_id = store().put(pin(1), untouched, kNow).segment_id;
  store().put(pin(1), written, kNow);
  store().put(pin(2), written, kNow + kTtl + 1);

  const auto publications =
      require_found(store().get(untouched_id), "get(untouched_id)").record.publications;
  ASSERT_EQ(publications.size(), 1u);
  EXPECT_EQ(publications[0].expires_at_ms, kNow + kTtl);  // expired, still visible to get
}

TEST_P(SegmentExpiry, R27_GetReturnsExpiredRecordsWithTheirBytes) {
  record_spec("§5.5", "R27");
  const Bytes bytes = payload("old");
  const std::string id = store().put(base_metadata(), bytes, kNow - kTtl - 1).segment_id;
  const auto got = store().get(id);
  ASSERT_TRUE(got);
  EXPECT_LT(got->record.expires_at_ms, kNow);
  EXPECT_EQ(got->bytes, bytes);
}

TEST_P(SegmentExpiry, R29_AnExpiredPinDoesNotShadowALiveOne) {
  record_spec("§5.1", "R29");
  const Bytes bytes = payload("shadow");
  const std::string id = store().put(pin(1), bytes, kNow).segment_id;
  store().put(pin(2), bytes, kNow + kHour);

  // What a download asks (partition, epoch, digest: all pins share them) at a
  // time when pin 1 has expired and pin 2 has not.
  const std::int64_t download_at = kNow + kTtl + 1;
  EXPECT_EQ(newest_live_pin(require_found(store().get(id), "get(id)").record, download_at), 2);

  store().put(pin(3), bytes, kNow + kTtl + 1);
  EXPECT_EQ(newest_live_pin(require_found(store().get(id), "get(id)").record, download_at),
            3);  // the newest candidate
}

}  // namespace
}  // namespace ssp::harness
