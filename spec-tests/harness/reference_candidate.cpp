#include "harness/candidate.hpp"
#include "ssp/memory_segment_store.hpp"
#include "ssp/postgres_segment_store.hpp"
#include "ssp/sqlite_segment_store.hpp"

namespace ssp::harness {
namespace {

// The C++ reference implementation, linked in process.
class ReferenceCandidate final : public Candidate {
 public:
  std::string name() const override { return "reference"; }
  bool supports(Backend) const override { return true; }
  bool persists(Backend backend) const override { return backend != Backend::memory; }

  std::unique_ptr<SegmentStore> open_segment_store(const DatabaseLocation& location,
                                                   const SegmentStoreOptions& options) override {
    switch (location.backend) {
      case Backend::memory: return make_memory_segment_store(options);
      case Backend::sqlite: return open_sqlite_segment_store(location.sqlite_path, options);
      case Backend::postgres:
        return open_postgres_segment_store(location.pg_dsn, location.pg_schema, options);
    }
    return nullptr;
  }
};

}  // namespace

Candidate& current_candidate() {
  static ReferenceCandidate reference;
  return reference;
}

}  // namespace ssp::harness
