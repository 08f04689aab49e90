// The location of a harness-owned database, as segments.open and
// storage.open receive it (docs/driver-protocol.md, "Values").
#pragma once

#include <string>

#include "wire/wire_json.hpp"

namespace ssp::driver {

struct Location {
  std::string backend;  // "memory" | "sqlite" | "postgres"
  std::string path;     // sqlite
  std::string dsn;      // postgres
  std::string schema;   // postgres
};

// Throws WireError for a missing field or an unknown backend.
Location location_from_json(const wire::Fields& location);

}  // namespace ssp::driver
