#include "ssp/storage/schema_compile.hpp"
#include "ssp/storage/server_readiness.hpp"
#include "ssp/storage/storage_errors.hpp"

namespace ssp::storage {

SchemaReport ensure_server_ready(ServerStorage& storage, const ServerSchema& schema) {
  CompiledSchema compiled;
  try {
    compiled = compile_schema(schema);
  } catch (const SchemaError&) {
    throw ServerNotReady(schema.version, "schema_compile", std::current_exception());
  }
  try {
    return storage.ensure_schema(compiled);
  } catch (const std::exception&) {
    throw ServerNotReady(schema.version, "storage_migration", std::current_exception());
  }
}

}  // namespace ssp::storage
