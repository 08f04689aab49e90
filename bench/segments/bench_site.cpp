#include "bench_site.hpp"

#include "ssp/memory/memory_segment_store.hpp"

namespace ssp::bench {
namespace {

class MemorySite final : public BenchSite {
 public:
  std::shared_ptr<SegmentStore> open_store() override { return store_; }
  std::unique_ptr<FloorDatabase> open_floor() override { return nullptr; }

 private:
  std::shared_ptr<SegmentStore> store_ = make_memory_segment_store();
};

}  // namespace

std::string_view backend_name(BenchBackend backend) {
  switch (backend) {
    case BenchBackend::memory: return "memory";
    case BenchBackend::sqlite: return "sqlite";
    case BenchBackend::postgres: return "postgres";
  }
  return "?";
}

std::unique_ptr<BenchSite> make_bench_site(BenchBackend backend, const BenchConfig& config) {
  switch (backend) {
    case BenchBackend::memory: return std::make_unique<MemorySite>();
    case BenchBackend::sqlite: return make_sqlite_site(config);
    case BenchBackend::postgres: return make_postgres_site(config);
  }
  return nullptr;
}

}  // namespace ssp::bench
