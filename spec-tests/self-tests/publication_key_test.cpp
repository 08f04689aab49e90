// The reference's publication_key (design notes §1.5, DECISION D13): the
// text it builds for a context equals the Node.js JSON.stringify golden
// strings of fixtures/known-answers/publication_keys.json. What a candidate's
// store writes is R51 (spec-tests/segments/s5_1_publication_key_test.cpp).
#include <gtest/gtest.h>

#include "harness/catalog/spec.hpp"
#include "harness/fixtures/publication_key_vectors.hpp"
#include "harness/fixtures/segment_fixtures.hpp"
#include "ssp/segments/publication_key.hpp"

namespace ssp::harness {
namespace {

TEST(PublicationKeyText, PK_1_KeysEqualTheJsonStringifyGoldenStrings) {
  record_spec("§5.1", "PK-1");
  const std::vector<PublicationKeyVector> vectors = publication_key_vectors();
  ASSERT_GE(vectors.size(), 10u);
  for (const PublicationKeyVector& vector : vectors) {
    SCOPED_TRACE(vector.name);
    EXPECT_EQ(publication_key(vector.context), vector.pub_key);
  }
}

TEST(PublicationKeyText, PK_1_KeyIsTheJsonStringifyOfTheNineFields) {
  record_spec("§5.1", "PK-1");
  EXPECT_EQ(publication_key(base_metadata()),
            R"(["p","epoch-1","tasks",1,"sqlite","digest-a",42,null,null])");

  SegmentMetadata paged = base_metadata();
  paged.media_type = MediaType::rows;
  paged.row_cursor = "row-100";
  paged.next_row_cursor = "";
  paged.as_of_commit_seq = -9007199254740991;
  EXPECT_EQ(publication_key(paged),
            R"(["p","epoch-1","tasks",1,"rows","digest-a",-9007199254740991,"row-100",""])");
}

TEST(PublicationKeyText, PK_1_StringsAreEscapedExactlyAsJsonStringifyDoes) {
  record_spec("§5.1", "PK-1");
  SegmentMetadata m = base_metadata();
  // quote, backslash, the five short escapes, other C0 controls as \u00xx
  // (lower-case hex), DEL, U+2028 and a non-BMP character raw.
  m.partition = "q\"b\\s\b\f\n\r\t\x01\x1f\x7f\u2028\U0001F600/";
  EXPECT_EQ(publication_key(m),
            "[\"q\\\"b\\\\s\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\u2028\U0001F600/\","
            "\"epoch-1\",\"tasks\",1,\"sqlite\",\"digest-a\",42,null,null]");
}

}  // namespace
}  // namespace ssp::harness
