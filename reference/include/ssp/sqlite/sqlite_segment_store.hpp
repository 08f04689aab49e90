// SQLite segment store over the exact upstream 0.22 tables, so a database file
// written by the upstream TypeScript server opens unchanged.
#pragma once

#include <memory>
#include <string>

#include "ssp/segments/segment_store.hpp"
#include "ssp/segments/segment_store_options.hpp"
#include "ssp/sqlite/sqlite_durability.hpp"

namespace ssp {

// What only the SQLite store can be asked for, next to the backend-neutral
// SegmentStoreOptions.
struct SqliteSegmentStoreOptions {
  // When commits reach stable storage; ignored with read_only (nothing is written).
  SqliteDurability durability = SqliteDurability::normal;
};

// Opens (creating if needed) the store in the SQLite file at `path` on its own
// connection, in WAL mode at `sqlite_options.durability` (default NORMAL:
// segments are cache entries, SPEC §5.1).
// Opening upgrades a 0.21 database in place: the side tables, the log_epoch
// guard and the scope backfill, each idempotent. With options.read_only the
// file is opened read-only and the upgrade is emulated in temporary objects.
// Thread-safe (one connection behind a mutex); use one store per thread for
// parallelism. Throws StorageError when the file cannot be opened.
std::unique_ptr<SegmentStore> open_sqlite_segment_store(
    const std::string& path, SegmentStoreOptions options = {},
    SqliteSegmentStoreOptions sqlite_options = {});

}  // namespace ssp
