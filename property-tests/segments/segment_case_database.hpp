// The database one RapidCheck case runs against: fresh for every case (and
// every shrink attempt), so cases cannot see each other's segments.
#pragma once

#include <memory>
#include <string>

#include "harness/backends/test_database.hpp"
#include "harness/candidate/backend.hpp"
#include "ssp/segments/segment_store.hpp"
#include "ssp/segments/segment_store_options.hpp"

namespace ssp::properties {

class CaseDatabase {
 public:
  // A new SQLite file or PostgreSQL schema; nothing for memory.
  explicit CaseDatabase(harness::Backend backend);

  harness::Backend backend() const { return backend_; }

  // Whether a store opened later sees what an earlier one wrote (the
  // candidate decides; memory stores start empty).
  bool persists() const;

  // A new store on a new connection, opened through the candidate under test.
  std::unique_ptr<SegmentStore> open(const SegmentStoreOptions& options) const;

  // Whether the backend keeps SQL tables the test can reach behind the store.
  bool has_sql() const { return database_ != nullptr; }

  // Drops the first stored byte of `segment_id` behind the store's back
  // (harness::corrupt_stored_bytes). SQL backends only.
  void corrupt_stored_bytes(const std::string& segment_id) const;

 private:
  harness::Backend backend_;
  std::unique_ptr<harness::TestDatabase> database_;
};

}  // namespace ssp::properties
