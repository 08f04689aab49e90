#include "push_site.hpp"

#include <stdexcept>

#include "push_workload.hpp"
#include "ssp/storage/schema_compile.hpp"

namespace ssp::bench {

PushSite::PushSite() : schema_(storage::compile_schema(push_bench_schema())) {}

std::unique_ptr<PushSite> make_push_site(BenchBackend backend, const BenchConfig& config) {
  switch (backend) {
    case BenchBackend::sqlite: return make_sqlite_push_site(config);
    case BenchBackend::postgres: return make_postgres_push_site(config);
    case BenchBackend::memory: break;
  }
  throw std::invalid_argument("no server storage on the memory backend");
}

}  // namespace ssp::bench
