// The schema a push.run or a command.run carries (docs/driver-protocol.md,
// "push.run"). A driver that declares ensuredSchema runs a push under the
// schema its storage last ensured, as a server pushes under the schema it
// brought its database to, so the request carries none and the driver
// parses and compiles nothing per push. An older driver is sent the test's
// schema, as before.
#pragma once

#include <string>

#include "ssp/storage/schema.hpp"
#include "ssp/storage/server_storage.hpp"
#include "wire/wire_json.hpp"

namespace ssp::harness {

// Adds "schema" to `params` for a driver without ensuredSchema. With it,
// adds nothing, once it has checked that `schema` is the one `storage` last
// ensured: a test that pushes under another schema would be judged on a push
// the driver never ran, so that is a HarnessError naming `method`.
void add_push_schema(wire::Json& params, const std::string& method,
                     storage::ServerStorage& storage, const storage::CompiledSchema& schema,
                     bool ensured_schema_advertised);

}  // namespace ssp::harness
