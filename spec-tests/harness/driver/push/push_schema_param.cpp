#include "harness/driver/push/push_schema_param.hpp"

#include "harness/driver/driver_server_storage.hpp"
#include "harness/errors/harness_error.hpp"
#include "wire/wire_values.hpp"

namespace ssp::harness {

void add_push_schema(wire::Json& params, const std::string& method,
                     storage::ServerStorage& storage, const storage::CompiledSchema& schema,
                     bool ensured_schema_advertised) {
  if (!ensured_schema_advertised) {
    params["schema"] = wire::compiled_schema_to_json(schema);
    return;
  }
  const auto in_force = driver_storage_schema_in_force(storage);
  if (!in_force) {
    throw HarnessError(method + ": no storage.ensure_schema has succeeded on this storage, and "
                                "the driver runs pushes under the schema it ensured "
                                "(ensuredSchema)");
  }
  if (*in_force != schema) {
    throw HarnessError(method + ": the test pushes under a schema (version " +
                       std::to_string(schema.version) +
                       ") that is not the one storage.ensure_schema last put in force on this "
                       "storage (version " + std::to_string(in_force->version) +
                       "), and the driver runs pushes under that one (ensuredSchema)");
  }
}

}  // namespace ssp::harness
