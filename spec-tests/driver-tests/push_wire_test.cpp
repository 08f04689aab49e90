// Bad push input on the wire (issue 19 part 6), sent as raw requests to each
// driver that pushes (ssp-reference-driver and the Python candidate): a
// malformed field of push.run, a callback answer of the wrong shape, the
// operation cap at its boundary. Each refusal names the field, writes
// nothing, and the driver serves the next request. And the schema a push runs
// under when the request carries none (ensuredSchema).
#include <gmock/gmock.h>

#include "harness/catalog/spec.hpp"
#include "raw_driver_test.hpp"
#include "ssp/push/push_types.hpp"
#include "tasks_wire.hpp"

namespace ssp::driver_tests {
namespace {

using ::testing::HasSubstr;
using wire::Json;

class PushWire : public RawDriverTest {
 protected:
  void SetUp() override {
    hello_ = start("", "push-wire-test");
    const Json opened = process_->call(
        "storage.open", {{"location", {{"backend", "sqlite"}, {"path", path_.string()}}},
                         {"options", {{"compatibility", "0.22"}, {"lockWaitMs", 5000}, {"hooks", false}}}});
    storage_ = opened.at("storage");
    process_->call("storage.ensure_schema", {{"storage", storage_}, {"schema", tasks_schema()}});
  }

  // An upsert of row t1 (kTaskPayload): a commit may hold it several times.
  static Json operation() {
    return {{"table", "tasks"}, {"rowId", "t1"}, {"op", "upsert"}, {"payload", kTaskPayload},
            {"baseVersion", nullptr}};
  }

  Json run_params(const std::string& commit_id, Json operations, std::int64_t cap = 500,
                  Json validators = Json::array()) {
    return {{"storage", storage_},
            {"schema", tasks_schema()},
            {"actor", {{"partition", "acme"}, {"actorId", "u1"}, {"allowedScopes", {{"project_id", {"*"}}}}}},
            {"commit", {{"clientId", "c1"}, {"clientCommitId", commit_id}, {"operations", std::move(operations)}}},
            {"nowMs", 1000},
            {"maxOperationsPerRequest", cap},
            {"cacheIdentity", nullptr},
            {"callbacks", {{"rowValidators", std::move(validators)}, {"commitValidator", false},
                           {"notify", false}, {"hooks", false}}}};
  }

  std::int64_t max_seq() {
    return process_->call("storage.get_max_commit_seq", {{"storage", storage_}, {"partition", "acme"}})
        .at("commitSeq")
        .get<std::int64_t>();
  }

  // The driver still serves: a good push applies at the next seq.
  void expect_a_good_push_applies(const std::string& commit_id, std::int64_t seq) {
    const Json answer = process_->call("push.run", run_params(commit_id, Json::array({operation()})));
    EXPECT_EQ(answer.value("status", ""), "applied") << answer.dump();
    EXPECT_EQ(answer.value("commitSeq", Json()), Json(seq)) << answer.dump();
  }

  Json hello_;
  Json storage_;
};

TEST_P(PushWire, HARNESS_35_AMalformedPushFieldIsRefusedByItsPathAndWritesNothing) {
  harness::record_spec("Driver", "HARNESS-35");
  // Each refusal must name the field: the words every driver's message
  // holds, whatever its path syntax ("params.commit.operations[0].op" or
  // "'operations[0]'.op").
  struct Case {
    std::vector<std::string> names;
    std::function<void(Json&)> spoil;
  };
  const std::vector<Case> cases = {
      {{"operations[0]", "baseVersion"},
       [](Json& p) { p["commit"]["operations"][0]["baseVersion"] = "1"; }},
      {{"operations[0]", "baseVersion"},
       [](Json& p) { p["commit"]["operations"][0]["baseVersion"] = 1.5; }},
      {{"operations[0]", "payload"}, [](Json& p) { p["commit"]["operations"][0]["payload"] = 7; }},
      {{"operations[0]", "op"}, [](Json& p) { p["commit"]["operations"][0]["op"] = "merge"; }},
      {{"actor"}, [](Json& p) { p.erase("actor"); }},
      {{"nowMs"}, [](Json& p) { p["nowMs"] = "soon"; }},
      {{"rowValidators"}, [](Json& p) { p["callbacks"]["rowValidators"] = {3}; }},
  };
  for (const Case& c : cases) {
    Json params = run_params("k1", Json::array({operation()}));
    c.spoil(params);
    SCOPED_TRACE(params.dump());
    try {
      process_->call("push.run", params);
      ADD_FAILURE() << "accepted";
    } catch (const harness::DriverError& error) {
      EXPECT_THAT(error.what(), HasSubstr("ssp.bad_request"));
      for (const std::string& name : c.names) EXPECT_THAT(error.what(), HasSubstr(name));
    }
    ASSERT_TRUE(process_->healthy());
    EXPECT_EQ(max_seq(), 0);
  }
  expect_a_good_push_applies("k1", 1);
}

TEST_P(PushWire, HARNESS_36_TheOperationCapAcceptsExactlyItsCount) {
  harness::record_spec("Driver", "HARNESS-36");
  const Json two = Json::array({operation(), operation()});
  const Json three = Json::array({operation(), operation(), operation()});
  EXPECT_THROW(process_->call("push.run", run_params("k3", three, 2)), push::PushRequestError);
  EXPECT_EQ(max_seq(), 0);
  const Json answer = process_->call("push.run", run_params("k2", two, 2));
  EXPECT_EQ(answer.value("status", ""), "applied") << answer.dump();
  EXPECT_EQ(max_seq(), 1);
}

TEST_P(PushWire, HARNESS_37_ACallbackAnswerOfTheWrongShapeIsRefusedByNameAndWritesNothing) {
  harness::record_spec("Driver", "HARNESS-37");
  for (const Json& answer : {Json{{"rejection", 5}}, Json{{"rejection", {{"code", "x.y"}}}},
                             Json{{"threw", false}}}) {
    SCOPED_TRACE(answer.dump());
    const auto reply = [&](const std::string& method, const wire::Fields&) -> Json {
      EXPECT_EQ(method, "validate_row");
      return answer;
    };
    try {
      process_->call("push.run",
                     run_params("k1", Json::array({operation()}), 500, Json::array({"tasks"})),
                     reply);
      ADD_FAILURE() << "accepted";
    } catch (const harness::DriverError& error) {
      EXPECT_THAT(error.what(), HasSubstr("ssp.bad_request"));
      EXPECT_THAT(error.what(), HasSubstr("validate_row answer"));
    }
    ASSERT_TRUE(process_->healthy());
    EXPECT_EQ(max_seq(), 0);
  }
  expect_a_good_push_applies("k1", 1);
}

TEST_P(PushWire, HARNESS_63_APushWithoutASchemaRunsUnderTheSchemaItsStorageEnsured) {
  harness::record_spec("Driver", "HARNESS-63");
  ASSERT_TRUE(hello_.at("capabilities").value("ensuredSchema", false)) << hello_.dump();
  Json params = run_params("k1", Json::array({operation()}));
  params.erase("schema");
  const Json applied = process_->call("push.run", params);
  EXPECT_EQ(applied.value("status", ""), "applied") << applied.dump();

  // A storage on which no ensure_schema succeeded has no table in force.
  const Json other =
      process_
          ->call("storage.open",
                 {{"location", {{"backend", "sqlite"}, {"path", path_.string()}}},
                  {"options", {{"compatibility", "0.22"}, {"lockWaitMs", 5000}, {"hooks", false}}}})
          .at("storage");
  params["storage"] = other;
  params["commit"]["clientCommitId"] = "k2";
  const Json refused = process_->call("push.run", params);
  EXPECT_EQ(refused.value("status", ""), "rejected") << refused.dump();
  EXPECT_EQ(refused.at("results").at(0).value("code", ""), "sync.unknown_table") << refused.dump();
  process_->call("storage.close", {{"storage", other}});

  // A schema the request carries, as an older harness sends it, is still run.
  expect_a_good_push_applies("k3", 2);
}

INSTANTIATE_TEST_SUITE_P(, PushWire, ::testing::Values("reference", "python"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace ssp::driver_tests
