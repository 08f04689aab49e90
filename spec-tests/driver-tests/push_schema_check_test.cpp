// The harness's side of ensuredSchema (docs/driver-protocol.md, "push.run"):
// to a driver that declares it a push carries no schema, so a test that
// pushes under a schema its storage did not ensure would be judged on a push
// the driver never ran. The harness refuses that as its own error, naming the
// call, and sends the push that matches.
#include <gmock/gmock.h>

#include <filesystem>
#include <random>

#include "harness/catalog/spec.hpp"
#include "harness/driver/driver_areas.hpp"
#include "harness/driver/driver_server_storage.hpp"
#include "harness/errors/harness_error.hpp"
#include "harness/util/scratch_directory.hpp"
#include "ssp/encoding/base64.hpp"
#include "tasks_wire.hpp"

namespace ssp::driver_tests {
namespace {

using ::testing::HasSubstr;

const std::string kDriver = "'" + std::string(SSP_REFERENCE_DRIVER) + "'";

// The tasks schema as the driver compiles it, at `version`.
storage::CompiledSchema tasks_at(harness::SchemaArea& schemas, std::int64_t version) {
  wire::Json text = tasks_schema();
  text["version"] = version;
  return schemas.compile(schemas.parse(text.dump())).schema;
}

// Commit `commit_id` of client c1: an upsert of row t1 (kTaskPayload).
push::PushCommit one_task(const std::string& commit_id) {
  return {"c1", commit_id,
          {{"tasks", "t1", push::OperationKind::upsert, base64_decode(kTaskPayload),
            std::nullopt}}};
}

TEST(PushSchemaCheck, HARNESS_64_APushUnderASchemaItsStorageDidNotEnsureIsAHarnessError) {
  harness::record_spec("Harness", "HARNESS-64");
  harness::DriverProcess session(kDriver, harness::driver_limits());
  const harness::DriverHello hello = harness::say_hello(session);
  ASSERT_TRUE(hello.ensured_schema);
  const auto schemas = harness::make_driver_schema_area(session);
  const auto pushes = harness::make_driver_push_area(hello);
  const storage::CompiledSchema ensured = tasks_at(*schemas, 1);
  const storage::CompiledSchema other = tasks_at(*schemas, 2);

  std::random_device random;
  harness::DatabaseLocation location;
  location.backend = harness::Backend::sqlite;
  location.sqlite_path =
      (harness::scratch_directory() / ("ssp-schema-check-" + std::to_string(random()) + ".db"))
          .string();
  auto storage = harness::open_driver_server_storage(kDriver, location, {}, true);
  const push::PushActor actor{"acme", "u1", ScopeMap{{"project_id", {"*"}}}};
  push::PushOptions options;
  options.clock = [] { return std::int64_t{1000}; };

  const auto refused = [&](const storage::CompiledSchema& schema, const std::string& commit_id) {
    const harness::HarnessErrorsExpected expected;
    try {
      pushes->push(*storage, schema, actor, one_task(commit_id), options);
    } catch (const harness::HarnessError& error) {
      return std::string(error.what());
    }
    return std::string("pushed");
  };
  EXPECT_THAT(refused(ensured, "k0"), HasSubstr("push.run: no storage.ensure_schema"));
  storage->ensure_schema(ensured);
  EXPECT_THAT(refused(other, "k1"),
              HasSubstr("push.run: the test pushes under a schema (version 2)"));
  EXPECT_EQ(pushes->push(*storage, ensured, actor, one_task("k2"), options).status,
            push::PushAnswerStatus::applied);
  storage.reset();
  for (const char* suffix : {"", "-wal", "-shm"}) {
    std::error_code ignored;
    std::filesystem::remove(location.sqlite_path + suffix, ignored);
  }
}

}  // namespace
}  // namespace ssp::driver_tests
