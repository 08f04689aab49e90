// A driver run without hook points (`--no-hooks`: ssp-reference-driver and the
// Python candidate) is what CI's hookless entries run, as a production
// implementation. Declaring none is not enough: a test that installs a hook
// anyway must err, or a hookless entry would pass it unnoticed (issue 50). So
// each request that asks for hook points is refused with ssp.unsupported, and
// the driver goes on serving.
#include <gmock/gmock.h>

#include "harness/catalog/spec.hpp"
#include "raw_driver_test.hpp"
#include "tasks_wire.hpp"

namespace ssp::driver_tests {
namespace {

using ::testing::HasSubstr;
using wire::Json;

class HooklessDriver : public RawDriverTest {
 protected:
  void SetUp() override {
    const Json hello = start(" --no-hooks", "hookless-test");
    ASSERT_FALSE(hello.at("capabilities").at("hooks").get<bool>());
    ASSERT_FALSE(hello.at("capabilities").at("pushHooks").get<bool>());
  }

  Json location() const { return {{"backend", "sqlite"}, {"path", path_.string()}}; }
  Json storage_options(bool hooks) const {
    return {{"compatibility", "0.22"}, {"lockWaitMs", 5000}, {"hooks", hooks}};
  }
  Json segment_options(bool hooks) const {
    return {{"ttlMs", 60000}, {"lockWaitMs", 5000}, {"readOnly", false}, {"hooks", hooks},
            {"hasher", "sha256"}};
  }
  // One upsert of row t1 (kTaskPayload).
  static Json operations() {
    return Json::array({{{"table", "tasks"}, {"rowId", "t1"}, {"op", "upsert"},
                         {"payload", kTaskPayload}, {"baseVersion", nullptr}}});
  }
  Json push_params(const Json& storage, bool hooks) const {
    return {{"storage", storage},
            {"schema", tasks_schema()},
            {"actor",
             {{"partition", "acme"},
              {"actorId", "u1"},
              {"allowedScopes", {{"project_id", {"*"}}}}}},
            {"commit",
             {{"clientId", "c1"}, {"clientCommitId", "k1"}, {"operations", operations()}}},
            {"nowMs", 1000},
            {"maxOperationsPerRequest", 500},
            {"cacheIdentity", nullptr},
            {"callbacks", {{"rowValidators", Json::array()}, {"commitValidator", false},
                           {"notify", false}, {"hooks", hooks}}}};
  }

  // `method` with `params` is refused as unsupported, naming the hook points,
  // and the driver still serves.
  void expect_refused(const std::string& method, const Json& params) {
    SCOPED_TRACE(method);
    try {
      process_->call(method, params);
      ADD_FAILURE() << method << " asked for hook points and was served";
    } catch (const harness::DriverError& error) {
      EXPECT_THAT(error.what(), HasSubstr("ssp.unsupported"));
      EXPECT_THAT(error.what(), HasSubstr("hook points"));
    }
    ASSERT_TRUE(process_->healthy());
  }
};

TEST_P(HooklessDriver, HARNESS_60_ARequestForHookPointsIsRefused) {
  harness::record_spec("Driver", "HARNESS-60");
  expect_refused("storage.open", {{"location", location()}, {"options", storage_options(true)}});
  expect_refused("segments.open", {{"location", location()}, {"options", segment_options(true)}});
  const Json opened = process_->call(
      "storage.open", {{"location", location()}, {"options", storage_options(false)}});
  const Json storage = opened.at("storage");
  process_->call("storage.ensure_schema", {{"storage", storage}, {"schema", tasks_schema()}});
  expect_refused("push.run", push_params(storage, true));
  Json command = push_params(storage, true);
  command.erase("commit");
  command.erase("maxOperationsPerRequest");
  command["request"] = {{"operationId", "inc"}, {"clientId", "app"}, {"requestId", "r1"}};
  command["command"] = {{"kind", "increment"}, {"rowId", "c1"}, {"project", "p1"}};
  command["authorized"] = true;
  expect_refused("command.run", command);
  // Asked for none, the same requests are served.
  const Json applied = process_->call("push.run", push_params(storage, false));
  EXPECT_EQ(applied.value("status", ""), "applied") << applied.dump();
  process_->call("segments.open", {{"location", location()}, {"options", segment_options(false)}});
}

INSTANTIATE_TEST_SUITE_P(, HooklessDriver, ::testing::Values("reference", "python"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace ssp::driver_tests
