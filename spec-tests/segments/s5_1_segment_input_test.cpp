// What a store refuses before touching anything, and what it must carry
// unchanged (SSP2 conventions: safe integers, UTF-8 strings; design note Q8).
#include "harness/fixtures/segment_fixtures.hpp"
#include "harness/util/require_found.hpp"
#include "ssp/errors/errors.hpp"

namespace ssp::harness {
namespace {

class SegmentInput : public SegmentStoreTest {};
SSP_ALL_BACKENDS(SegmentInput);

constexpr std::int64_t kUnsafe = (std::int64_t{1} << 53);

TEST_P(SegmentInput, IN_1_ANonPositiveTtlIsRefusedWhenTheStoreIsBuilt) {
  record_spec("§5.1", "IN-1");
  for (const std::int64_t ttl : {std::int64_t{0}, std::int64_t{-1}, kUnsafe}) {
    SegmentStoreOptions options;
    options.ttl_ms = ttl;
    EXPECT_THROW(open(options), InvalidArgument) << "ttlMs " << ttl;
  }
}

TEST_P(SegmentInput, IN_2_IntegersOutsideTheSafeRangeAreRefusedWithoutWriting) {
  record_spec("Conventions", "IN-2");
  const Bytes bytes = payload("range");
  const auto refuses = [&](auto change, const char* field) {
    SegmentMetadata m = base_metadata();
    change(m);
    try {
      store().put(m, bytes, kNow);
      ADD_FAILURE() << field << " out of range was accepted";
    } catch (const InvalidArgument& error) {
      EXPECT_NE(std::string(error.what()).find(field), std::string::npos) << error.what();
    }
  };
  refuses([](SegmentMetadata& m) { m.as_of_commit_seq = kUnsafe; }, "asOfCommitSeq");
  refuses([](SegmentMetadata& m) { m.row_count = -kUnsafe; }, "rowCount");
  refuses([](SegmentMetadata& m) { m.schema_version = kUnsafe; }, "schemaVersion");
  EXPECT_THROW(store().put(base_metadata(), bytes, kUnsafe), InvalidArgument);
  EXPECT_EQ(store().stats().count, 0);

  SegmentMetadata edge = base_metadata();  // the bounds themselves are fine
  edge.as_of_commit_seq = kUnsafe - 1;
  edge.row_count = -(kUnsafe - 1);
  edge.schema_version = kUnsafe - 1;
  const std::string id = store().put(edge, bytes, kNow).segment_id;
  EXPECT_EQ(require_found(store().get(id), "get(id)").record.metadata, edge);
  EXPECT_TRUE(store().find(find_key_of(edge), kNow + 1));
}

TEST_P(SegmentInput, IN_3_AnyUtf8StringRoundTrips) {
  record_spec("§5.1", "IN-3");
  SegmentMetadata m = base_metadata();
  m.partition = "it's \"quoted\" \\ back";
  m.log_epoch = "tab\tnew\nline\x01\x1f";
  m.table = "caf\u00e9 \u2028 \U0001F600";
  m.scope_digest = "'); DROP TABLE sync_segments; --";
  m.row_cursor = "";
  m.next_row_cursor = "\U0010FFFF";
  const std::string id = store().put(m, payload("strings"), kNow).segment_id;
  EXPECT_EQ(require_found(store().get(id), "get(id)").record.metadata, m);
  if (candidate().persists(backend())) {
    EXPECT_EQ(require_found(reopen().get(id), "get(id)").record.metadata, m);
  }
}

TEST_P(SegmentInput, IN_4_NulAndInvalidUtf8AreRefusedNamingTheField) {
  record_spec("§5.1", "IN-4");
  SegmentMetadata nul = base_metadata();
  nul.table = std::string("ta\0sks", 6);
  EXPECT_THROW(store().put(nul, payload("x"), kNow), InvalidArgument);
  SegmentMetadata invalid = base_metadata();
  invalid.row_cursor = std::string("\xc3\x28");  // a broken two-byte sequence
  try {
    store().put(invalid, payload("x"), kNow);
    ADD_FAILURE() << "invalid UTF-8 was accepted";
  } catch (const InvalidArgument& error) {
    EXPECT_NE(std::string(error.what()).find("rowCursor"), std::string::npos) << error.what();
  }
  EXPECT_EQ(store().stats().count, 0);
}

}  // namespace
}  // namespace ssp::harness
