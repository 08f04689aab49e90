// The server storage on a SQLite file (storage.md §2.2, §4, §5.3).
#pragma once

#include <memory>
#include <string>

#include "ssp/storage/server_storage.hpp"

namespace ssp::storage {

// Opens (creating the file if needed) the database at `path` on its own
// connection; nothing is created in it until ensure_schema. ensure_schema runs
// in one BEGIN IMMEDIATE transaction, so the database write lock is the
// migration lock. Throws StorageError when the file cannot be opened.
std::unique_ptr<ServerStorage> open_sqlite_server_storage(const std::string& path,
                                                          ServerStorageOptions options = {});

}  // namespace ssp::storage
