// The backends a candidate can run on, and where the harness puts a database
// for one test.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace ssp::harness {

enum class Backend { memory, sqlite, postgres };

std::string_view backend_name(Backend backend);
// GoogleTest prints parameters with this.
void PrintTo(Backend backend, std::ostream* out);

// Every backend, in the order tests are instantiated.
std::vector<Backend> all_backends();

// The backend backend_name() calls `name`, or nothing when none is.
std::optional<Backend> backend_called(std::string_view name);

// Where a candidate opens its stores for one test. The harness owns the
// database; the candidate only connects to it.
struct DatabaseLocation {
  Backend backend = Backend::memory;
  std::string sqlite_path;  // Backend::sqlite: a file in a fresh temp directory
  std::string pg_dsn;       // Backend::postgres: from SSP_PG_DSN
  std::string pg_schema;    // Backend::postgres: a fresh schema, ssp_t_<random>
};

}  // namespace ssp::harness
