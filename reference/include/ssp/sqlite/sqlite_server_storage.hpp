// The server storage on a SQLite file (storage.md §2.2, §4, §5.3).
#pragma once

#include <memory>
#include <string>

#include "ssp/sqlite/sqlite_durability.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::storage {

// What only the SQLite server storage can be asked for, next to the
// backend-neutral ServerStorageOptions.
struct SqliteServerStorageOptions {
  // When commits reach stable storage, on every connection that writes (the
  // schema writer and each push transaction's). FULL by default, unlike the
  // segment store: an applied push is what clients are told is durable, and
  // the commit log cannot be rebuilt as a segment can. NORMAL trades the last
  // commits before a power loss for one fsync fewer per push.
  SqliteDurability durability = SqliteDurability::full;
};

// Opens (creating the file if needed) the database at `path` on its own
// connection, in WAL mode at `sqlite_options.durability`; nothing is created
// in it until ensure_schema. ensure_schema runs in one BEGIN IMMEDIATE
// transaction, so the database write lock is the migration lock. Throws
// StorageError when the file cannot be opened.
std::unique_ptr<ServerStorage> open_sqlite_server_storage(
    const std::string& path, ServerStorageOptions options = {},
    SqliteServerStorageOptions sqlite_options = {});

}  // namespace ssp::storage
