// How a stored media type is read back (design notes §3.3, DECISION D14): a
// value other than 'sqlite' decodes as 'rows', as upstream's SQLite store
// does, rather than failing. The foreign spellings are written into the
// tables behind the store's back, as another writer could leave them.
#include <gtest/gtest.h>

#include "harness/fixtures/segment_fixtures.hpp"

namespace ssp::harness {
namespace {

// Spellings no conforming writer stores; each must read as rows.
const std::vector<std::string> kForeignSpellings = {"image", "SQLITE", "sqlite ", ""};

class StoredMediaType : public SegmentStoreTest {
 protected:
  // Puts M (sqlite) with pin `pin`, then rewrites its media type in every
  // table to `spelling`. Returns the segment id.
  std::string put_then_respell(std::int64_t pin, const std::string& spelling) {
    SegmentMetadata m = base_metadata();
    m.as_of_commit_seq = pin;
    const std::string id = store().put(m, payload("respelled " + std::to_string(pin)), kNow).segment_id;
    for (const char* table : {"sync_segments", "sync_segment_publications"}) {
      database().exec(std::string("UPDATE ") + table + " SET media_type = '" + spelling +
                      "' WHERE segment_id = '" + id + "'");
    }
    return id;
  }
};
SSP_ALL_BACKENDS(StoredMediaType);

TEST_P(StoredMediaType, D14_AStoredMediaTypeOtherThanSqliteReadsAsRows) {
  record_spec("§5.1", "D14");
  SSP_REQUIRE_SQL("the foreign spelling is written into the tables behind the store's back");
  std::int64_t pin = 100;
  for (const std::string& spelling : kForeignSpellings) {
    SCOPED_TRACE("stored media_type '" + spelling + "'");
    const std::string id = put_then_respell(++pin, spelling);
    const auto got = reopen().get(id);
    ASSERT_TRUE(got);
    EXPECT_EQ(got->record.metadata.media_type, MediaType::rows);
    ASSERT_EQ(got->record.publications.size(), 1u);
    EXPECT_EQ(got->record.publications[0].metadata.media_type, MediaType::rows);
  }
  // stats split by the decoded top-level type.
  const SegmentStoreStats stats = store().stats();
  EXPECT_EQ(stats.sqlite_segments, 0);
  EXPECT_EQ(stats.rows_segments, static_cast<std::int64_t>(kForeignSpellings.size()));
}

// Reference level (D14 carried into find): upstream's find compares the
// stored text in SQL, so neither key finds a foreign spelling there; the
// reference's find decides on the decoded value, like get.
TEST_P(StoredMediaType, D14_REF_FindFollowsTheDecodedMediaType) {
  record_spec("§5.1", "D14-REF");
  SSP_REQUIRE_SQL("the foreign spelling is written into the tables behind the store's back");
  std::int64_t pin = 200;
  for (const std::string& spelling : kForeignSpellings) {
    SCOPED_TRACE("stored media_type '" + spelling + "'");
    const std::string id = put_then_respell(++pin, spelling);
    const auto got = reopen().get(id);
    ASSERT_TRUE(got);

    // find follows the decoded value: a rows key finds it, a sqlite key not.
    SegmentMetadata as_rows = got->record.metadata;
    const auto found = store().find(find_key_of(as_rows), kNow + 1);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->segment_id, id);
    EXPECT_EQ(found->metadata.media_type, MediaType::rows);
    SegmentMetadata as_sqlite = as_rows;
    as_sqlite.media_type = MediaType::sqlite;
    EXPECT_FALSE(store().find(find_key_of(as_sqlite), kNow + 1));
  }
}

TEST_P(StoredMediaType, D14_ALegacyRowWithAForeignMediaTypeMaterializesAsRows) {
  record_spec("§5.1", "D14");
  SSP_REQUIRE_SQL("the foreign spelling is written into the tables behind the store's back");
  const std::string id = put_then_respell(7, "image");
  // No publication rows: the record is read the legacy way, from sync_segments.
  database().exec("DELETE FROM sync_segment_publications WHERE segment_id = '" + id + "'");
  const auto got = reopen().get(id);
  ASSERT_TRUE(got);
  ASSERT_EQ(got->record.publications.size(), 1u);
  EXPECT_EQ(got->record.publications[0].metadata.media_type, MediaType::rows);
  EXPECT_EQ(got->record.metadata.media_type, MediaType::rows);
}

TEST_P(StoredMediaType, D14_ARePublicationMergesWithTheDecodedGrant) {
  record_spec("§5.1", "D14");
  SSP_REQUIRE_SQL("the foreign spelling is written into the tables behind the store's back");
  const std::string id = put_then_respell(9, "image");
  SegmentMetadata m = base_metadata();
  m.as_of_commit_seq = 9;
  const Bytes bytes = payload("respelled 9");
  // The stored grant is a rows grant now: re-publishing it as rows merges in
  // place, publishing it as sqlite adds a second grant.
  m.media_type = MediaType::rows;
  EXPECT_EQ(store().put(m, bytes, kNow + 1).publications.size(), 1u);
  m.media_type = MediaType::sqlite;
  const SegmentRecord both = store().put(m, bytes, kNow + 2);
  ASSERT_EQ(both.publications.size(), 2u);
  EXPECT_EQ(both.publications[0].metadata.media_type, MediaType::rows);
  EXPECT_EQ(both.publications[0].created_at_ms, kNow);
  EXPECT_EQ(both.segment_id, id);
}

}  // namespace
}  // namespace ssp::harness
