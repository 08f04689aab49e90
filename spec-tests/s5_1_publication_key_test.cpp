// The publication key as stored (design notes §1.5, DECISION D13, R51): the
// pub_key text of sync_segment_publications, written by the candidate's
// store, is what upstream's JSON.stringify writes for the same context, byte
// for byte, so a database file written here and one written by upstream
// agree. The golden strings come from fixtures/known-answers/publication_keys.json
// (Node.js JSON.stringify, fixtures/known-answers/generate.js); the tests
// read them and never compute a key themselves. The reference's own
// publication_key function is a self-test (PK-1, self-tests/publication_key_test.cpp).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "harness/fixture_files.hpp"
#include "harness/segment_fixtures.hpp"

namespace ssp::harness {
namespace {

struct PublicationKeyVector {
  std::string name;
  SegmentMetadata context;
  std::string pub_key;
};

std::optional<std::string> nullable_text(const nlohmann::json& value) {
  if (value.is_null()) return std::nullopt;
  return value.get<std::string>();
}

std::vector<PublicationKeyVector> publication_key_vectors() {
  const auto document =
      nlohmann::json::parse(read_fixture("known-answers/publication_keys.json"));
  std::vector<PublicationKeyVector> vectors;
  for (const auto& vector : document.at("vectors")) {
    const auto& c = vector.at("context");
    SegmentMetadata m;
    m.partition = c.at("partition").get<std::string>();
    m.log_epoch = c.at("logEpoch").get<std::string>();
    m.table = c.at("table").get<std::string>();
    m.schema_version = c.at("schemaVersion").get<std::int64_t>();
    const std::string media_type = c.at("mediaType").get<std::string>();
    if (media_type != "rows" && media_type != "sqlite") {
      throw std::runtime_error("publication_keys.json: media type " + media_type);
    }
    m.media_type = media_type == "rows" ? MediaType::rows : MediaType::sqlite;
    m.scope_digest = c.at("scopeDigest").get<std::string>();
    m.as_of_commit_seq = c.at("asOfCommitSeq").get<std::int64_t>();
    m.row_count = c.at("rowCount").get<std::int64_t>();
    m.row_cursor = nullable_text(c.at("rowCursor"));
    m.next_row_cursor = nullable_text(c.at("nextRowCursor"));
    vectors.push_back({vector.at("name").get<std::string>(), m,
                       vector.at("pubKey").get<std::string>()});
  }
  return vectors;
}

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
