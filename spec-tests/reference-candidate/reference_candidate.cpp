#include "harness/candidate/candidate.hpp"
#include "harness/candidate/reference_areas.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/memory/memory_segment_store.hpp"
#include "ssp/postgres/postgres_segment_store.hpp"
#include "ssp/postgres/postgres_server_storage.hpp"
#include "ssp/sqlite/sqlite_segment_store.hpp"
#include "ssp/sqlite/sqlite_server_storage.hpp"

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

  std::unique_ptr<storage::ServerStorage> open_server_storage(
      const DatabaseLocation& location, const storage::ServerStorageOptions& options) override {
    switch (location.backend) {
      case Backend::memory: break;
      case Backend::sqlite:
        return storage::open_sqlite_server_storage(location.sqlite_path, options);
      case Backend::postgres:
        return storage::open_postgres_server_storage(location.pg_dsn, location.pg_schema, options);
    }
    throw InvalidArgument("the reference has no server storage on the memory backend");
  }

  ScopeArea& scope() override { return reference_scope_area(); }
  RowArea& rows() override { return reference_row_area(); }
  SchemaArea& schema() override { return reference_schema_area(); }
  DownloadArea& download() override { return reference_download_area(); }
  SignedUrlArea& signed_urls() override { return reference_signed_url_area(); }
  ErrorCatalogArea& error_catalog() override { return reference_error_catalog_area(); }
  PushArea& push() override { return reference_push_area(); }
  CommandArea& commands() override { return reference_command_area(); }
};

}  // namespace

Candidate& reference_candidate() {
  static ReferenceCandidate reference;
  return reference;
}

}  // namespace ssp::harness
