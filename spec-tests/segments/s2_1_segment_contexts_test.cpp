// Identical bytes under another partition (§2.1), log epoch (§2.1), table or
// pin (§5.3) are distinct publications of one content address
// (segments.md §4, R17, the store half of R19, R20).
#include <gmock/gmock.h>

#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/util/require_found.hpp"

namespace ssp::harness {
namespace {

class SegmentContexts : public SegmentStoreTest {};
SSP_ALL_BACKENDS(SegmentContexts);

TEST_P(SegmentContexts, R17_TwoPartitionsKeepTwoPublications) {
  record_spec("§2.1", "R17");
  const Bytes empty;  // the empty segment is the most common shared payload
  SegmentMetadata p1 = base_metadata();
  p1.partition = "p1";
  SegmentMetadata p2 = with_digest(base_metadata(), "digest-b");
  p2.partition = "p2";
  const std::string id = store().put(p1, empty, kNow).segment_id;
  store().put(p2, empty, kNow + 1);

  const SegmentRecord record = require_found(store().get(id), "get(id)").record;
  ASSERT_EQ(record.publications.size(), 2u);
  EXPECT_EQ(record.metadata.partition, "p2");  // the latest publisher
  // A set: the order is the reference's (D4), SPEC gives none.
  EXPECT_THAT(record.scope_digests, ::testing::UnorderedElementsAre("digest-b", "digest-a"));
  EXPECT_EQ(require_found(store().find(find_key_of(p1), kNow + 2), "find(p1)").metadata.partition,
            "p1");
  EXPECT_EQ(require_found(store().find(find_key_of(p2), kNow + 2), "find(p2)").metadata.partition,
            "p2");
}

TEST_P(SegmentContexts, R19_AnotherEpochNeverReusesAndRepublishingAppends) {
  record_spec("§2.1", "R19");
  const Bytes bytes = payload("epoch bound");
  const SegmentMetadata old_epoch = base_metadata();
  SegmentMetadata new_epoch = base_metadata();
  new_epoch.log_epoch = "epoch-2";
  const std::string id = store().put(old_epoch, bytes, kNow).segment_id;

  EXPECT_FALSE(store().find(find_key_of(new_epoch), kNow + 1));

  store().put(new_epoch, bytes, kNow + kHour);
  const auto publications = require_found(store().get(id), "get(id)").record.publications;
  ASSERT_EQ(publications.size(), 2u);
  EXPECT_EQ(publications[0].metadata.log_epoch, "epoch-1");
  EXPECT_EQ(publications[1].metadata.log_epoch, "epoch-2");
  EXPECT_EQ(require_found(store().find(find_key_of(new_epoch), kNow + kHour + 1), "find(new epoch)")
                .metadata.log_epoch,
            "epoch-2");
}

// Reference level (D1): the put comes at exactly the old grant's expiresAtMs,
// which prunes it only under the reference's boundary (expired = expiresAtMs
// <= now); upstream's prune predicate is not in the 0.22 diff.
TEST_P(SegmentContexts, R19_REF_APutAtTheOldEpochsExpiryPrunesItsGrant) {
  record_spec("§2.1", "R19-REF");
  const Bytes bytes = payload("epoch bound");
  SegmentMetadata new_epoch = base_metadata();
  new_epoch.log_epoch = "epoch-2";
  const std::string id = store().put(base_metadata(), bytes, kNow).segment_id;
  store().put(new_epoch, bytes, kNow + kHour);

  // The old epoch's grant stays until it has expired and a put prunes it.
  store().put(new_epoch, bytes, kNow + kTtl);
  const auto publications = require_found(store().get(id), "get(id)").record.publications;
  ASSERT_EQ(publications.size(), 1u);
  EXPECT_EQ(publications[0].metadata.log_epoch, "epoch-2");
}

TEST_P(SegmentContexts, R20_TablesAndPinsAreFoundByTheirOwnKey) {
  record_spec("§5.3", "R20");
  const Bytes bytes = payload("two tables");
  SegmentMetadata tasks = base_metadata();
  tasks.as_of_commit_seq = 1;
  SegmentMetadata docs = base_metadata();
  docs.table = "docs";
  docs.as_of_commit_seq = 2;
  docs.row_count = 0;
  const std::string id = store().put(tasks, bytes, kNow).segment_id;
  store().put(docs, bytes, kNow + 1);

  EXPECT_EQ(require_found(store().get(id), "get(id)").record.publications.size(), 2u);
  const auto found_tasks = store().find(find_key_of(tasks), kNow + 2);
  const auto found_docs = store().find(find_key_of(docs), kNow + 2);
  ASSERT_TRUE(found_tasks);
  ASSERT_TRUE(found_docs);
  EXPECT_EQ(found_tasks->metadata, tasks);
  EXPECT_EQ(found_docs->metadata, docs);
  SegmentMetadata crossed = tasks;
  crossed.as_of_commit_seq = 2;  // tasks at docs' pin was never published
  EXPECT_FALSE(store().find(find_key_of(crossed), kNow + 2));
}

}  // namespace
}  // namespace ssp::harness
