#include "harness/segment_fixtures.hpp"

#include "harness/backend_gate.hpp"
#include "harness/require_found.hpp"

namespace ssp::harness {

SegmentMetadata base_metadata() {
  SegmentMetadata m;
  m.partition = "p";
  m.log_epoch = "epoch-1";
  m.table = "tasks";
  m.schema_version = 1;
  m.media_type = MediaType::sqlite;
  m.scope_digest = "digest-a";
  m.as_of_commit_seq = 42;
  m.row_count = 5;
  return m;
}

SegmentMetadata with_digest(SegmentMetadata metadata, const std::string& digest) {
  metadata.scope_digest = digest;
  return metadata;
}

SegmentMetadata with_pin(SegmentMetadata metadata, std::int64_t pin) {
  metadata.as_of_commit_seq = pin;
  return metadata;
}

Bytes payload(const std::string& text) { return Bytes(text.begin(), text.end()); }

SegmentPublication fresh_publication(const SegmentMetadata& metadata, std::int64_t byte_length,
                                     std::int64_t now_ms) {
  return SegmentPublication{metadata, byte_length, now_ms, now_ms + kTtl};
}

void SegmentStoreTest::SetUp() {
  SSP_REQUIRE_CAPABILITY(candidate(), Capability::segment_store);
  SSP_SKIP_UNLESS_BACKEND_READY(candidate(), backend());
  database_ = create_test_database(backend());
}

std::unique_ptr<SegmentStore> SegmentStoreTest::open(const SegmentStoreOptions& options) {
  const DatabaseLocation location =
      database_ ? database_->location() : DatabaseLocation{Backend::memory, {}, {}, {}};
  return require_opened(candidate().open_segment_store(location, options), "segment store");
}

void corrupt_stored_bytes(TestDatabase& database, const std::string& segment_id) {
  // substr works on SQLite blobs and PostgreSQL bytea alike.
  database.exec("UPDATE sync_segments SET bytes = substr(bytes, 2) WHERE segment_id = '" +
                segment_id + "'");
}

void SegmentStoreTest::corrupt_stored_bytes(const std::string& segment_id) {
  harness::corrupt_stored_bytes(database(), segment_id);
}

SegmentStore& SegmentStoreTest::store() {
  if (!store_) store_ = open();
  return *store_;
}

SegmentStore& SegmentStoreTest::reopen() {
  store_.reset();
  return store();
}

std::string backend_param_name(const ::testing::TestParamInfo<Backend>& info) {
  return std::string(backend_name(info.param));
}

}  // namespace ssp::harness
