// What a storage's startup reports (storage.md §2.2–§3): the action it took
// and what it ran. The sequence that makes one is the reference's
// (ssp/storage/schema_startup.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ssp::storage {

// What startup found and did (or, in a preview, would do).
struct SchemaReport {
  enum class Action {
    memoized,  // this storage already ensured these layouts; nothing was read
    verified,  // same version: layouts and physical tables checked, nothing written
    migrated,  // marker absent or older: the migration subset ran, marker written
    // The schema is in force, and the storage did not say what it did: a
    // candidate whose ensure_schema returns nothing (upstream's returns void).
    // Only configured_version is set. The reference never answers it.
    unreported,
  };
  Action action = Action::verified;
  std::int64_t configured_version = 0;
  std::optional<std::int64_t> stored_version;  // nothing: no marker row
  std::vector<std::string> retired_tables;     // §3 step 2, in drop order
  std::vector<std::string> statements;         // app DDL run, in order (core DDL not listed)
  std::int64_t rewritten_rows = 0;             // payloads re-encoded or projections backfilled

  friend bool operator==(const SchemaReport&, const SchemaReport&) = default;
};

}  // namespace ssp::storage
