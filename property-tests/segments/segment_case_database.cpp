#include "segment_case_database.hpp"

#include "harness/candidate/candidate.hpp"
#include "harness/fixtures/segment_fixtures.hpp"

namespace ssp::properties {

CaseDatabase::CaseDatabase(harness::Backend backend)
    : backend_(backend), database_(harness::create_test_database(backend)) {}

bool CaseDatabase::persists() const { return harness::current_candidate().persists(backend_); }

std::unique_ptr<SegmentStore> CaseDatabase::open(const SegmentStoreOptions& options) const {
  const harness::DatabaseLocation location =
      database_ ? database_->location() : harness::DatabaseLocation{backend_, {}, {}, {}};
  return harness::current_candidate().open_segment_store(location, options);
}

void CaseDatabase::corrupt_stored_bytes(const std::string& segment_id) const {
  harness::corrupt_stored_bytes(*database_, segment_id);
}

}  // namespace ssp::properties
