#include "harness/backends/test_database.hpp"

#include <cstdlib>
#include <string>

#include "harness/backends/inspected_test_database.hpp"
#include "harness/backends/postgres_database.hpp"
#include "harness/backends/postgres_run_database.hpp"
#include "harness/backends/sqlite_database.hpp"

namespace ssp::harness {

std::optional<std::string> backend_unavailable(Backend backend) {
  if (backend != Backend::postgres) return std::nullopt;
  const char* dsn = std::getenv("SSP_PG_DSN");
  if (dsn == nullptr || *dsn == '\0') {
    return "SSP_PG_DSN is not set; run under scripts/with-postgres to include PostgreSQL";
  }
  return std::nullopt;
}

bool postgres_required() {
  const char* required = std::getenv("SSP_REQUIRE_PG");
  return required != nullptr && std::string(required) == "1";
}

std::unique_ptr<TestDatabase> create_test_database(Backend backend) {
  switch (backend) {
    case Backend::memory: return nullptr;
    case Backend::sqlite: return inspected(std::make_unique<SqliteTestDatabase>());
    case Backend::postgres:
      return inspected(
          std::make_unique<PostgresTestDatabase>(run_database_dsn(std::getenv("SSP_PG_DSN"))));
  }
  return nullptr;
}

}  // namespace ssp::harness
