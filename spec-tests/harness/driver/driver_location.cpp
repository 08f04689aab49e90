#include "harness/driver/driver_location.hpp"

namespace ssp::harness {

wire::Json location_to_json(const DatabaseLocation& location) {
  switch (location.backend) {
    case Backend::memory: return {{"backend", "memory"}};
    case Backend::sqlite: return {{"backend", "sqlite"}, {"path", location.sqlite_path}};
    case Backend::postgres:
      return {{"backend", "postgres"}, {"dsn", location.pg_dsn}, {"schema", location.pg_schema}};
  }
  return {};
}

}  // namespace ssp::harness
