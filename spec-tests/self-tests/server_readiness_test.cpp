// The reference's readiness wrapper (design/storage.md §6 B-10):
// storage::ensure_server_ready compiles a schema and ensures it, wrapping a
// failure of either step as sync.schema_not_ready. A candidate's suite
// surface has no such entry point (it is the reference's server API, over any
// ServerStorage), so this pins the reference, always, over its own storage.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "harness/fixtures/storage_fixtures.hpp"
#include "ssp/storage/server_readiness.hpp"

namespace ssp::harness {
namespace {

using storage::SchemaReport;

class ServerReadiness : public StorageTest {};
SSP_SQL_BACKENDS(ServerReadiness);

std::string newer_message(std::int64_t stored, std::int64_t configured) {
  return "stored schema version " + std::to_string(stored) +
         " is newer than the configured schema (" + std::to_string(configured) +
         ") \u2014 refusing to run an older server against a migrated database";
}

TEST_P(ServerReadiness, B_10_ReadinessWrapsFailuresAsSchemaNotReady) {
  record_spec("§2.4", "B-10");
  storage::ServerSchema broken = example_schema();
  broken.tables[0].primary_key = "nope";
  try {
    storage::ensure_server_ready(storage(), broken);
    ADD_FAILURE() << "a schema that does not compile was ready";
  } catch (const storage::ServerNotReady& error) {
    EXPECT_EQ(error.code(), "sync.schema_not_ready");
    EXPECT_EQ(error.phase(), "schema_compile");
    EXPECT_EQ(std::string(error.what()), "Syncular server schema 3 is not ready (schema_compile)");
    EXPECT_THROW(std::rethrow_exception(error.cause()), storage::SchemaError);
  }
  EXPECT_EQ(storage::ensure_server_ready(storage(), example_schema()).action,
            SchemaReport::Action::migrated);
  storage::ServerSchema older = example_schema();
  older.version = 2;
  const std::string before = dump();
  try {
    storage::ensure_server_ready(*open(), older);
    ADD_FAILURE() << "an older schema was ready";
  } catch (const storage::ServerNotReady& error) {
    EXPECT_EQ(error.phase(), "storage_migration");
    EXPECT_EQ(std::string(error.what()),
              "Syncular server schema 2 is not ready (storage_migration)");
    try {
      std::rethrow_exception(error.cause());
    } catch (const storage::SchemaRefusal& cause) {
      EXPECT_EQ(std::string(cause.what()), newer_message(3, 2));
    }
  }
  EXPECT_EQ(dump(), before);
}

}  // namespace
}  // namespace ssp::harness
