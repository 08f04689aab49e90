// The negative controls of the fault tests (issue 35, docs/faults.md): push
// drivers that lose or double-apply data only when a process dies part-way
// or an answer is lost (fakes/push_fault_driver.cpp), and a segment driver
// whose put is split in two transactions or not kept once answered
// (fakes/segment_fault_driver.cpp).
// Each passes the rest of the tests as the reference does; the fault test
// named must fail it, on SQLite and on PostgreSQL.
#include <gmock/gmock.h>

#include "conformance_run.hpp"
#include "harness/candidate/candidate.hpp"
#include "harness/catalog/spec.hpp"
#include "harness/gates/backend_gate.hpp"

namespace ssp::driver_tests {
namespace {

struct FaultFake {
  const char* driver;     // the fake's program
  const char* fault;      // its argument
  const char* caught_by;  // the fault test that must fail it, without its backend
  bool postgres_only;     // a connection cut, which SQLite has not
  // Never answers a faulted call: the driver's deadline is shortened, and
  // `caught_by` (FAULT-13, reference level) judges the silences of this sweep.
  const char* hangs_in = nullptr;
};

constexpr const char* kKilledAtACallback =
    "PushFaults.FAULT_1_AnAppliedPushKilledAtAnyCallbackCommitsWholeOrNotAndThenOnce";
constexpr const char* kCutAtARoundTrip =
    "PushFaults.FAULT_5_AnAppliedPushWhoseConnectionIsCutCommitsWholeOrNotAndThenOnce";

constexpr const char* kCommandCutAtARoundTrip =
    "PushFaults.FAULT_12_ACommandWhoseConnectionIsCutCommitsWholeOrNotAndThenOnce";
constexpr const char* kHangsAfterACut = "PushFaults.FAULT_13_AFaultedPushOrCommandNeverHangs";
// The silence after which the harness gives up on a fake that hangs: every
// call of the fake that does answer answers in milliseconds.
constexpr const char* kShortDeadline = "SSP_DRIVER_TIMEOUT_MS=4000";

constexpr const char* kFakePushDriver = SSP_FAKE_PUSH_DRIVER;
constexpr const char* kFakeSegmentDriver = SSP_FAKE_SEGMENT_DRIVER;

constexpr FaultFake kFaultFakes[] = {
    {kFakePushDriver, "stores-the-result-after-commit", kKilledAtACallback, false},
    {kFakePushDriver, "commits-the-rows-before-the-result", kKilledAtACallback, false},
    {kFakePushDriver, "replays-from-memory",
     "PushFaults.FAULT_3_AnAnswerLostAfterTheCommitIsReplayedByANewProcess", false},
    {kFakePushDriver, "replays-from-memory",
     "PushFaults.FAULT_11_ACommandWhoseAnswerIsLostIsReplayedWithoutRunningAgain", false},
    // The COMMIT's answer cut: the rows are durable, the result is not.
    {kFakePushDriver, "stores-the-result-after-commit", kCutAtARoundTrip, true},
    {kFakePushDriver, "commits-the-rows-before-the-result", kCutAtARoundTrip, true},
    // A call that hangs once its connection is cut fails fails-cleanly (FAULT-13); the run
    // does not err.
    {kFakePushDriver, "never-answers-a-failed-push", kHangsAfterACut, true, kCutAtARoundTrip},
    {kFakePushDriver, "never-answers-a-failed-push", kHangsAfterACut, true,
     kCommandCutAtARoundTrip},
    {kFakeSegmentDriver, "commits-the-scope-before-the-put",
     "SegmentPutFaults.FAULT_7_ASegmentPutKilledAtAnyCallbackLeavesTheStoreAsItWasThenPublishes",
     false},
    {kFakeSegmentDriver, "loses-an-answered-put",
     "SegmentPutFaults.FAULT_14_ASegmentPutWhoseAnswerIsLostIsFoundPublishedThenPutOnce", false},
};

// Every fault fake, run through ssp-faults' quick sweep on `backend` (profile 0.22: FAULT-7 is
// a 0.22 row, which the default profile does not count; reference for FAULT-13): the run fails
// (exit 1, a failure and not an error) and the named test fails.
void expect_each_fault_fake_caught(const std::string& backend) {
  for (const FaultFake& fake : kFaultFakes) {
    if (fake.postgres_only && backend != "postgres") continue;
    SCOPED_TRACE(std::string(fake.fault) + " on " + backend + ", caught by " + fake.caught_by);
    const std::string test = std::string(fake.caught_by) + "/" + backend;
    std::vector<std::string> env = {"SSP_FAULT_SWEEP=subset", "SSP_PROFILE=0.22"};
    std::string filter = test;
    if (fake.hangs_in != nullptr) {
      env = {"SSP_FAULT_SWEEP=subset", "SSP_PROFILE=reference", kShortDeadline};
      filter = std::string(fake.hangs_in) + "/" + backend + ":" + test;
    }
    const ConformanceRun run =
        run_faults("exec:'" + std::string(fake.driver) + "' " + fake.fault, filter, env);
    EXPECT_EQ(run.exit_code, 1) << run.output;
    ASSERT_TRUE(run.results.contains(test)) << run.output;
    EXPECT_EQ(run.results.at(test), Outcome::failed) << run.output;
  }
}

TEST(FaultFakes, HARNESS_55_EachFaultFakeFailsItsFaultTestOnSqlite) {
  harness::record_spec("Driver", "HARNESS-55");
  expect_each_fault_fake_caught("sqlite");
}

TEST(FaultFakes, HARNESS_55_EachFaultFakeFailsItsFaultTestOnPostgres) {
  harness::record_spec("Driver", "HARNESS-55");
  SSP_SKIP_UNLESS_BACKEND_READY(harness::reference_candidate(), harness::Backend::postgres);
  expect_each_fault_fake_caught("postgres");
}

}  // namespace
}  // namespace ssp::driver_tests
