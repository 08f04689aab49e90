// Shared values of the segment requirements (design notes §4 conventions) and
// the parameterized fixture every segment test derives from.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "harness/candidate.hpp"
#include "harness/capability_gate.hpp"
#include "harness/printers.hpp"
#include "harness/spec.hpp"
#include "harness/test_database.hpp"
#include "ssp/segment_store.hpp"

namespace ssp::harness {

inline constexpr std::int64_t kNow = 1'750'000'000'000;
inline constexpr std::int64_t kTtl = 86'400'000;
inline constexpr std::int64_t kHour = 3'600'000;

// M: partition 'p', epoch 'epoch-1', table 'tasks', schema 1, sqlite,
// digest 'digest-a', pin 42, rowCount 5, null cursors.
SegmentMetadata base_metadata();
// M with another scope digest (the most common variation).
SegmentMetadata with_digest(SegmentMetadata metadata, const std::string& digest);
// M with another pin (asOfCommitSeq).
SegmentMetadata with_pin(SegmentMetadata metadata, std::int64_t pin);
// A small distinct payload per name.
Bytes payload(const std::string& text);

// Damages the stored bytes of `segment_id` in `database` behind the store's
// back (drops the first byte; empty bytes stay empty), as disk corruption or
// a foreign writer would.
void corrupt_stored_bytes(TestDatabase& database, const std::string& segment_id);

// A publication as put at `now` with the default TTL would create it.
SegmentPublication fresh_publication(const SegmentMetadata& metadata, std::int64_t byte_length,
                                     std::int64_t now_ms);

// Parameterized over every backend. SetUp skips (or, with SSP_REQUIRE_PG=1,
// fails) when the backend is unavailable and creates a fresh database.
class SegmentStoreTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override;

  Backend backend() const { return GetParam(); }
  Candidate& candidate() { return current_candidate(); }
  bool has_sql() const { return database_ != nullptr; }
  // The harness-owned database; only valid when has_sql().
  TestDatabase& database() { return *database_; }

  // A new store on a new connection over this test's database.
  std::unique_ptr<SegmentStore> open(const SegmentStoreOptions& options = {});
  // corrupt_stored_bytes on this test's database. SQL only.
  void corrupt_stored_bytes(const std::string& segment_id);
  // The test's default store, opened on first use.
  SegmentStore& store();
  // Drops the default store and opens it again (reopen = new process).
  SegmentStore& reopen();

 private:
  std::unique_ptr<TestDatabase> database_;
  std::unique_ptr<SegmentStore> store_;
};

// A human-readable parameter name for test instantiation: memory, sqlite, postgres.
std::string backend_param_name(const ::testing::TestParamInfo<Backend>& info);

}  // namespace ssp::harness

// Skips the test on backends without SQL tables (memory), saying why.
#define SSP_REQUIRE_SQL(why)                                                   \
  do {                                                                         \
    if (!has_sql()) GTEST_SKIP() << "memory backend has no SQL tables: " << why; \
  } while (0)

// Skips the test where a reopened store starts empty (memory).
#define SSP_REQUIRE_PERSISTENCE()                                                   \
  do {                                                                              \
    if (!candidate().persists(backend()))                                           \
      GTEST_SKIP() << backend_name(backend()) << " stores do not survive a reopen"; \
  } while (0)

// Instantiates a SegmentStoreTest-derived suite over every backend.
#define SSP_ALL_BACKENDS(Suite)                                                          \
  INSTANTIATE_TEST_SUITE_P(, Suite, ::testing::ValuesIn(::ssp::harness::all_backends()), \
                           ::ssp::harness::backend_param_name)
