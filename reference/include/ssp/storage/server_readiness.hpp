// Server startup readiness (storage.md §6 B-10, upstream ensureSyncServerReady).
#pragma once

#include "ssp/storage/schema.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::storage {

// Compiles `schema` and ensures it on `storage`. Any failure is rethrown as
// ServerNotReady: code sync.schema_not_ready, phase "schema_compile" for a
// SchemaError from compile_schema, else "storage_migration"; message
// `Syncular server schema <version> is not ready (<phase>)`; the original
// error as cause.
SchemaReport ensure_server_ready(ServerStorage& storage, const ServerSchema& schema);

}  // namespace ssp::storage
