// The server storage in a PostgreSQL schema (storage.md §2.3, §4, §5.3).
#pragma once

#include <memory>
#include <string>

#include "ssp/storage/server_storage.hpp"

namespace ssp::storage {

// Connects to `dsn` and serves the tables of schema `pg_schema` (created by
// ensure_schema when absent). ensure_schema runs in one transaction that
// first takes a transaction-scoped advisory lock keyed on the schema name, so
// two processes migrating the same schema serialize (Q6). Throws StorageError
// when it cannot connect.
std::unique_ptr<ServerStorage> open_postgres_server_storage(const std::string& dsn,
                                                            const std::string& pg_schema,
                                                            ServerStorageOptions options = {});

}  // namespace ssp::storage
