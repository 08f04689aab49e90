// Content addresses against known answers (SSP2 §5.1, design notes R1): segments
// from 0 bytes to past 1 MiB, around SHA-256's block edges and 64 KiB, and
// pairs that agree on their first 64 KiB. The expected ids are
// fixtures/known-answers/content_addresses.txt, computed by coreutils sha256sum
// (fixtures/known-answers/generate.js); the bytes follow the recipe written
// at the top of that file, which bytes_of() below reproduces.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "harness/fixtures/fixture_files.hpp"
#include "harness/fixtures/segment_fixtures.hpp"

namespace ssp::harness {
namespace {

struct ContentAddressVector {
  std::size_t length = 0;
  std::string variant;
  std::string segment_id;
};

std::vector<ContentAddressVector> content_address_vectors() {
  std::istringstream lines(read_fixture("known-answers/content_addresses.txt"));
  std::vector<ContentAddressVector> vectors;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.starts_with('#')) continue;
    std::istringstream fields(line);
    ContentAddressVector vector;
    if (!(fields >> vector.length >> vector.variant >> vector.segment_id)) {
      throw std::runtime_error("content_addresses.txt: cannot read '" + line + "'");
    }
    vectors.push_back(vector);
  }
  return vectors;
}

// The recipe: byte i is (i * 31 + 7) mod 251; "last-flipped" XORs the last
// byte with 0xff.
Bytes bytes_of(const ContentAddressVector& vector) {
  Bytes bytes(vector.length);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<std::uint8_t>((i * 31 + 7) % 251);
  }
  if (vector.variant == "last-flipped") {
    bytes.back() ^= 0xff;
  } else if (vector.variant != "plain") {
    throw std::runtime_error("content_addresses.txt: unknown variant " + vector.variant);
  }
  return bytes;
}

class ContentAddress : public SegmentStoreTest {};
SSP_ALL_BACKENDS(ContentAddress);

// MUST level: the ids and the bytes served under them (§5.1). The lengths
// and the count the store keeps are R1-022's.
TEST_P(ContentAddress, R1_IdsEqualSha256sumKnownAnswersUpToPastOneMebibyte) {
  record_spec("§5.1", "R1");
  const std::vector<ContentAddressVector> vectors = content_address_vectors();
  ASSERT_GE(vectors.size(), 15u);
  for (const ContentAddressVector& vector : vectors) {
    SCOPED_TRACE(std::to_string(vector.length) + " bytes, " + vector.variant);
    const SegmentRecord put = store().put(base_metadata(), bytes_of(vector), kNow);
    EXPECT_EQ(put.segment_id, vector.segment_id);
  }
  // Every one reads back whole under its known id, including the pairs that
  // share their first 64 KiB (and more): none overwrote another.
  for (const ContentAddressVector& vector : vectors) {
    SCOPED_TRACE(std::to_string(vector.length) + " bytes, " + vector.variant);
    const auto got = store().get(vector.segment_id);
    ASSERT_TRUE(got);
    EXPECT_TRUE(got->bytes == bytes_of(vector));
  }
}

// 0.22 level: upstream's record carries the bytes' length, and its stats
// count each content address once; SPEC has neither a store record nor stats.
TEST_P(ContentAddress, R1_022_KnownAnswerSegmentsRecordTheirLength) {
  record_spec("§5.1", "R1-022");
  const std::vector<ContentAddressVector> vectors = content_address_vectors();
  ASSERT_GE(vectors.size(), 15u);
  for (const ContentAddressVector& vector : vectors) {
    SCOPED_TRACE(std::to_string(vector.length) + " bytes, " + vector.variant);
    const SegmentRecord put = store().put(base_metadata(), bytes_of(vector), kNow);
    EXPECT_EQ(put.byte_length, static_cast<std::int64_t>(vector.length));
  }
  for (const ContentAddressVector& vector : vectors) {
    SCOPED_TRACE(std::to_string(vector.length) + " bytes, " + vector.variant);
    const auto got = store().get(vector.segment_id);
    ASSERT_TRUE(got);
    EXPECT_EQ(got->record.byte_length, static_cast<std::int64_t>(vector.length));
  }
  EXPECT_EQ(store().stats().count, static_cast<std::int64_t>(vectors.size()));
}

}  // namespace
}  // namespace ssp::harness
