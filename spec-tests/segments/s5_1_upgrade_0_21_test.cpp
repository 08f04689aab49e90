// Opening a 0.21 segment database with the 0.22 store loses no publication
// (§5.1; segments.md §2.4 and §4, UPG-R35…R43, store halves). 0.21 had
// segment stores on SQLite only, so these run on SQLite; the legacy rows are
// built from fixtures/segments-0.21/ with the exact 0.21 DDL.
#include <sqlite3.h>

#include <functional>

#include <gmock/gmock.h>

#include "harness/fixtures/fixture_files.hpp"
#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/gates/granted_options.hpp"
#include "harness/util/require_found.hpp"

namespace ssp::harness {
namespace {

// Row R of the fixtures: bytes 01 02 03, partition p, epoch-1, tasks, pin 42,
// digest-d, published at kNow with the default TTL.
const std::string kLegacyId =
    "sha256:039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81";
const Bytes kLegacyBytes = {1, 2, 3};

SegmentMetadata legacy_metadata() { return with_digest(base_metadata(), "digest-d"); }

class UpgradeFrom021 : public SegmentStoreTest {
 protected:
  // Seeds the database with a fixture before any store opens it. False (and
  // the test skipped) on backends that had no 0.21 segment store.
  bool seed(const std::string& fixture) {
    if (backend() != Backend::sqlite) return false;
    database().exec(read_fixture("segments-0.21/" + fixture));
    return true;
  }

  // Opens a read-only store over the seeded file and hands it to `reads`.
  // No table's definition, index or row may change, while the store is open
  // or after it closed.
  void expect_read_only_writes_nothing(const CapabilityGrant& read_only_open,
                                       const std::function<void(SegmentStore&)>& reads) {
    const std::string before = database().dump_all_tables();
    SegmentStoreOptions read_only;
    open_read_only(read_only_open, read_only);
    auto reader = open(read_only);
    reads(*reader);
    EXPECT_EQ(database().dump_all_tables(), before);
    reader.reset();
    EXPECT_EQ(database().dump_all_tables(), before);
  }
};
SSP_ALL_BACKENDS(UpgradeFrom021);

#define SSP_SEED_LEGACY(fixture)                                                          \
  do {                                                                                    \
    if (!seed(fixture)) GTEST_SKIP() << "0.21 stored segments in SQLite only; nothing to " \
                                        "upgrade on " << backend_name(backend());         \
  } while (0)

TEST_P(UpgradeFrom021, UPG_R35_OpeningCreatesSideTablesAndBackfillsScopes) {
  record_spec("§5.1", "UPG-R35");
  SSP_SEED_LEGACY("normal.sql");
  store();
  EXPECT_EQ(database().query_column("SELECT segment_id || ' ' || scope_digest FROM "
                                    "sync_segment_scopes ORDER BY segment_id"),
            (std::vector<std::string>{
                kLegacyId + " digest-d",
                "sha256:3660315a9af3df255d8f19ab077e4797822b41488a0e2a04bc6af71213c23274 digest-d"}));
  EXPECT_EQ(database().query_column("SELECT count(*) FROM sync_segment_publications"),
            std::vector<std::string>{"0"});
}

TEST_P(UpgradeFrom021, UPG_R35_ReadOnlyOpenAnswersAsUpgradedWithoutWriting) {
  record_spec("§5.1", "UPG-R35");
  SSP_SEED_LEGACY("normal.sql");
  SSP_GRANT_CAPABILITY(read_only_open, candidate(), Capability::read_only_open);
  expect_read_only_writes_nothing(read_only_open, [](SegmentStore& reader) {
    const auto legacy = reader.get(kLegacyId);
    ASSERT_TRUE(legacy);
    EXPECT_EQ(legacy->record.publications.size(), 1u);
    EXPECT_TRUE(reader.find(find_key_of(legacy_metadata()), kNow + 1));
    EXPECT_EQ(reader.stats().count, 2);
  });
}

TEST_P(UpgradeFrom021, UPG_R35_ReadOnlyOpenOfAPreEpochFileWritesNothing) {
  record_spec("§5.1", "UPG-R35");
  SSP_SEED_LEGACY("pre_epoch.sql");  // the upgrade would add log_epoch
  SSP_GRANT_CAPABILITY(read_only_open, candidate(), Capability::read_only_open);
  expect_read_only_writes_nothing(read_only_open, [](SegmentStore& reader) {
    const auto legacy = reader.get(kLegacyId);
    ASSERT_TRUE(legacy);
    EXPECT_EQ(legacy->record.metadata.log_epoch, "");
  });
}

TEST_P(UpgradeFrom021, UPG_R35_ReadOnlyOpenOfAnIntermediateFileWritesNothing) {
  record_spec("§5.1", "UPG-R35");
  SSP_SEED_LEGACY("scopes_only.sql");  // the upgrade would backfill a scope row
  SSP_GRANT_CAPABILITY(read_only_open, candidate(), Capability::read_only_open);
  expect_read_only_writes_nothing(read_only_open, [](SegmentStore& reader) {
    const auto legacy = reader.get(kLegacyId);
    ASSERT_TRUE(legacy);
    EXPECT_EQ(legacy->record.publications.size(), 2u);
    EXPECT_EQ(reader.stats().count, 2);
  });
}

TEST_P(UpgradeFrom021, UPG_R36_ALegacyRowIsOnePublicationOfItsOwnContext) {
  record_spec("§5.1", "UPG-R36");
  SSP_SEED_LEGACY("normal.sql");
  const SegmentRecord record = require_found(store().get(kLegacyId), "get(kLegacyId)").record;
  EXPECT_EQ(record.scope_digests, std::vector<std::string>{"digest-d"});
  EXPECT_EQ(record.publications,
            std::vector<SegmentPublication>{fresh_publication(legacy_metadata(), 3, kNow)});
  EXPECT_EQ(require_found(store().get(kLegacyId), "get(kLegacyId)").bytes, kLegacyBytes);
}

TEST_P(UpgradeFrom021, UPG_R37_ALegacyRowIsFindableUntilItExpires) {
  record_spec("§5.3", "UPG-R37");
  SSP_SEED_LEGACY("normal.sql");
  const auto found = store().find(find_key_of(legacy_metadata()), kNow + 1);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->segment_id, kLegacyId);
  EXPECT_EQ(found->publications.size(), 1u);
  EXPECT_FALSE(store().find(find_key_of(legacy_metadata()), kNow + kTtl));
}

TEST_P(UpgradeFrom021, UPG_R38_TheMaterializedPublicationCarriesTheDownloadContext) {
  record_spec("§5.5", "UPG-R38");
  SSP_SEED_LEGACY("normal.sql");
  const SegmentPublication publication =
      require_found(store().get(kLegacyId), "get(kLegacyId)").record.publications.at(0);
  EXPECT_EQ(publication.metadata.partition, "p");
  EXPECT_EQ(publication.metadata.log_epoch, "epoch-1");
  EXPECT_EQ(publication.metadata.scope_digest, "digest-d");
  EXPECT_TRUE(publication.is_live(kNow + 1));
  EXPECT_FALSE(publication.is_live(kNow + kTtl));
}

TEST_P(UpgradeFrom021, UPG_R39_TheFirstPutWritesTheLegacyPublicationOut) {
  record_spec("§5.1", "UPG-R39");
  SSP_SEED_LEGACY("normal.sql");
  store().put(with_digest(legacy_metadata(), "digest-d2"), kLegacyBytes, kNow + kHour);

  EXPECT_EQ(database().query_column("SELECT scope_digest FROM sync_segment_publications "
                                    "WHERE segment_id = '" + kLegacyId + "' ORDER BY rowid"),
            (std::vector<std::string>{"digest-d", "digest-d2"}));
  EXPECT_EQ(database().query_column("SELECT scope_digest FROM sync_segment_scopes WHERE "
                                    "segment_id = '" + kLegacyId + "' ORDER BY scope_digest"),
            (std::vector<std::string>{"digest-d", "digest-d2"}));
  const SegmentRecord record = require_found(reopen().get(kLegacyId), "get(kLegacyId)").record;
  EXPECT_EQ(record.publications.at(0), fresh_publication(legacy_metadata(), 3, kNow));
}

TEST_P(UpgradeFrom021, UPG_R40_OpeningAgainIsIdempotent) {
  record_spec("§5.1", "UPG-R40");
  SSP_SEED_LEGACY("normal.sql");
  const auto first = store().get(kLegacyId);
  const std::string dump = database().dump_segment_tables();
  reopen();
  reopen();
  EXPECT_EQ(database().dump_segment_tables(), dump);
  const auto third = store().get(kLegacyId);
  ASSERT_TRUE(first && third);
  EXPECT_EQ(third->record, first->record);
  EXPECT_EQ(third->bytes, first->bytes);
}

TEST_P(UpgradeFrom021, UPG_R41_APreEpochTableGetsAnEmptyEpochColumnLast) {
  record_spec("§2.1", "UPG-R41");
  SSP_SEED_LEGACY("pre_epoch.sql");
  const auto got = store().get(kLegacyId);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->record.metadata.log_epoch, "");
  EXPECT_EQ(got->record.metadata.table, "tasks");  // read by name, not position
  EXPECT_EQ(got->record.metadata.scope_digest, "digest-d");
  EXPECT_EQ(database().query_column("SELECT name FROM pragma_table_info('sync_segments') "
                                    "ORDER BY cid DESC LIMIT 1"),
            std::vector<std::string>{"log_epoch"});
  SegmentFindKey key = find_key_of(legacy_metadata());
  EXPECT_FALSE(store().find(key, kNow + 1)) << "no live epoch is ever ''";
}

TEST_P(UpgradeFrom021, UPG_R42_AnIntermediateRowMaterializesOnePublicationPerDigest) {
  record_spec("§5.1", "UPG-R42");
  SSP_SEED_LEGACY("scopes_only.sql");
  const SegmentRecord record = require_found(store().get(kLegacyId), "get(kLegacyId)").record;
  // Sets: the order (primary first, D4) is the reference's, SPEC gives none.
  EXPECT_EQ(record.metadata.scope_digest, "digest-d");
  EXPECT_THAT(record.scope_digests, ::testing::UnorderedElementsAre("digest-d", "digest-c"));
  EXPECT_THAT(record.publications,
              ::testing::UnorderedElementsAre(
                  fresh_publication(legacy_metadata(), 3, kNow),
                  fresh_publication(with_digest(legacy_metadata(), "digest-c"), 3, kNow)));
  EXPECT_TRUE(store().find(find_key_of(with_digest(legacy_metadata(), "digest-c")), kNow + 1));
}

TEST_P(UpgradeFrom021, UPG_R43_AnExpiredLegacyPublicationIsPrunedByTheFirstPut) {
  record_spec("§5.1", "UPG-R43");
  SSP_SEED_LEGACY("normal.sql");
  const std::int64_t later = kNow + kTtl + 1;
  store().put(with_digest(legacy_metadata(), "digest-d2"), kLegacyBytes, later);
  const SegmentRecord record = require_found(store().get(kLegacyId), "get(kLegacyId)").record;
  EXPECT_EQ(record.publications,
            std::vector<SegmentPublication>{
                fresh_publication(with_digest(legacy_metadata(), "digest-d2"), 3, later)});
  EXPECT_EQ(record.scope_digests, std::vector<std::string>{"digest-d2"});
}

}  // namespace
}  // namespace ssp::harness
