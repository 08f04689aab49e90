// The SQLite server storage's schema session: the port run_schema_startup
// drives (schema_startup.hpp), on the storage's writer connection.
#pragma once

#include <memory>

#include "sqlite_connection.hpp"
#include "ssp/storage/schema_startup.hpp"

namespace ssp::storage {

// A session in a new write transaction on `connection` (BEGIN IMMEDIATE takes
// the database write lock: the migration lock), rolled back unless committed.
std::unique_ptr<SchemaSession> begin_sqlite_schema_session(sqlite::Connection& connection);

}  // namespace ssp::storage
