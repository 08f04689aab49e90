#include "location.hpp"

namespace ssp::driver {

Location location_from_json(const wire::Fields& location) {
  Location result;
  result.backend = location.text("backend");
  if (result.backend == "sqlite") {
    result.path = location.text("path");
  } else if (result.backend == "postgres") {
    result.dsn = location.text("dsn");
    result.schema = location.text("schema");
  } else if (result.backend != "memory") {
    throw wire::WireError(location.path_of("backend") + ": not memory, sqlite or postgres");
  }
  return result;
}

}  // namespace ssp::driver
