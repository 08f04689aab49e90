// The one-table schema the raw-protocol tests send (push_wire_test.cpp,
// hookless_driver_test.cpp), and a row of it as the wire carries it.
#pragma once

#include "wire/wire_json.hpp"

namespace ssp::driver_tests {

// tasks(id, project_id), scoped by project.
inline const wire::Json& tasks_schema() {
  static const wire::Json schema = wire::Json::parse(R"({"version":1,"tables":[{"name":"tasks",
    "columns":[{"name":"id","type":"string","nullable":false},
               {"name":"project_id","type":"string","nullable":false}],
    "primaryKey":"id","scopes":["project:{project_id}"],"materialize":true}]})");
  return schema;
}

// The row ("t1", "p1") under that layout (docs/driver-protocol.md, storage.upsert_row).
inline constexpr const char* kTaskPayload = "AAIAAAB0MQIAAABwMQ==";

}  // namespace ssp::driver_tests
