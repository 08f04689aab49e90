// The publication key as stored (design notes §1.5, DECISION D13, R51): the
// pub_key text of sync_segment_publications, written by the candidate's
// store, is what upstream's JSON.stringify writes for the same context, byte
// for byte, so a database file written here and one written by upstream
// agree. The golden strings come from fixtures/known-answers/publication_keys.json
// (Node.js JSON.stringify, fixtures/known-answers/generate.js); the tests
// read them and never compute a key themselves. The reference's own
// publication_key function is a self-test (PK-1, self-tests/publication_key_test.cpp).
#include <gtest/gtest.h>

#include "harness/fixtures/publication_key_vectors.hpp"
#include "harness/fixtures/segment_fixtures.hpp"

namespace ssp::harness {
namespace {

class StoredPublicationKey : public SegmentStoreTest {};
SSP_ALL_BACKENDS(StoredPublicationKey);

TEST_P(StoredPublicationKey, R51_StoredPubKeyIsTheJsonStringifyText) {
  record_spec("§5.1", "R51");
  SSP_REQUIRE_SQL("pub_key is a column of sync_segment_publications");
  for (const PublicationKeyVector& vector : publication_key_vectors()) {
    SCOPED_TRACE(vector.name);
    const SegmentRecord put = store().put(vector.context, payload("pub_key " + vector.name), kNow);
    EXPECT_EQ(database().query_column(
                  "SELECT pub_key FROM sync_segment_publications WHERE segment_id = '" +
                  put.segment_id + "'"),
              std::vector<std::string>{vector.pub_key});
    // The context itself survives the round trip unchanged.
    const auto got = store().get(put.segment_id);
    ASSERT_TRUE(got);
    ASSERT_EQ(got->record.publications.size(), 1u);
    EXPECT_EQ(got->record.publications[0].metadata, vector.context);
  }
}

}  // namespace
}  // namespace ssp::harness
