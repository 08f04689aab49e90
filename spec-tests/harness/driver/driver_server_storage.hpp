// storage::ServerStorage over a driver's storage.* methods
// (docs/driver-protocol.md, "storage").
#pragma once

#include <memory>
#include <string>

#include "harness/candidate/backend.hpp"
#include "harness/driver/driver_handle.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::harness {

// Opens a server storage in a new process of `command` over `location`. The
// options' ensure_hook becomes the hook callback; the caller checks the
// driver advertised hooks. `schema_reports` is the driver's hello
// "schemaReport": when false, ensure_schema reads nothing of the answer and
// returns an unreported SchemaReport, and preview_schema is a HarnessError
// (a test must skip at the schema_reports gate). Throws DriverError, or what
// the open's error answer stands for (InvalidArgument on memory).
std::unique_ptr<storage::ServerStorage> open_driver_server_storage(
    const std::string& command, const DatabaseLocation& location,
    const storage::ServerStorageOptions& options, bool schema_reports);

// The handle of `storage` when open_driver_server_storage opened it, else
// nullptr (a storage of another candidate, or a test's decorator).
DriverHandle* driver_storage_handle(storage::ServerStorage& storage);

// The schema of the last ensure_schema that succeeded on `storage` when
// open_driver_server_storage opened it: the schema a driver that declares
// ensuredSchema runs its pushes under. Null before the first success, or
// for a storage of another candidate.
std::shared_ptr<const storage::CompiledSchema> driver_storage_schema_in_force(
    storage::ServerStorage& storage);

}  // namespace ssp::harness
