// The harness is not fooled by a bad driver (issue 9 part 6): each fake under
// fakes/ misbehaves one way, and the conformance suite run against it must
// end in errors or failures, never in a pass. These run the built
// ssp-conformance on a slice, as CI would run it against a real candidate.
#include <gmock/gmock.h>

#include "conformance_run.hpp"
#include "harness/catalog/spec.hpp"

namespace ssp::driver_tests {
namespace {

using ::testing::HasSubstr;

int count(const ConformanceRun& run, Outcome outcome) {
  int n = 0;
  for (const auto& [test, result] : run.results) n += result == outcome ? 1 : 0;
  return n;
}

// Every test that ran erred (none passed or merely failed), the run exits 2,
// and the output carries `text` (the method and what went wrong).
void expect_errors(const ConformanceRun& run, const std::string& text) {
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_GT(count(run, Outcome::errored), 0) << run.output;
  EXPECT_EQ(count(run, Outcome::passed), 0) << run.output;
  EXPECT_EQ(count(run, Outcome::failed), 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr(text));
}

TEST(FakeDrivers, HARNESS_12_ADriverThatDiesAtStartErrsEveryTest) {
  harness::record_spec("Driver", "HARNESS-12");
  const ConformanceRun run = run_conformance(fake_candidate("crash-at-start"), "SegmentIdentity.*");
  expect_errors(run, "driver error: hello: the driver exited with status 3");
  EXPECT_EQ(count(run, Outcome::skipped), 0) << "nothing is known about a driver that never said hello";
  EXPECT_THAT(run.output, HasSubstr("fake crash-at-start: cannot load the implementation"))
      << "the tail of its stderr is shown";
}

TEST(FakeDrivers, HARNESS_13_ACrashInACallNamesTheMethodAndShowsStderr) {
  harness::record_spec("Driver", "HARNESS-13");
  const ConformanceRun run =
      run_conformance(fake_candidate("crash-mid-call"), "SegmentIdentity.R1_Put*:SegmentIdentity.R2_*");
  expect_errors(run, "driver error: segments.put: the driver was killed by signal 11");
  EXPECT_THAT(run.output, HasSubstr("segmentation fault while serving segments.put"));
}

TEST(FakeDrivers, HARNESS_14_AHangIsKilledAtTheDeadline) {
  harness::record_spec("Driver", "HARNESS-14");
  const ConformanceRun run = run_conformance(fake_candidate("hang"), "SegmentIdentity.R1_Put*",
                                             {"SSP_DRIVER_TIMEOUT_MS=300"});
  expect_errors(run, "driver error: segments.put: no answer within 300 ms");
  EXPECT_THAT(run.output, HasSubstr("fake hang: not answering segments.put"));
}

TEST(FakeDrivers, HARNESS_23_CallbacksDoNotPushACallPastItsCeiling) {
  harness::record_spec("Driver", "HARNESS-23");
  // Every hash callback is answered at once, so the driver is never silent
  // for the 300 ms deadline; only the ceiling can end the call.
  const ConformanceRun run =
      run_conformance(fake_candidate("endless-callbacks"), "SegmentIdentity.R6_*/memory",
                      {"SSP_DRIVER_TIMEOUT_MS=300", "SSP_DRIVER_CALL_CEILING_MS=1500"});
  expect_errors(run, "driver error: segments.put: no answer within the call's ceiling of 1500 ms");
  EXPECT_THAT(run.output, HasSubstr("fake endless-callbacks: asking hash forever"));
}

TEST(FakeDrivers, HARNESS_15_ALineThatIsNotJsonIsAProtocolViolation) {
  harness::record_spec("Driver", "HARNESS-15");
  const ConformanceRun run = run_conformance(fake_candidate("garbage"), "SegmentIdentity.R1_Put*");
  expect_errors(run, "driver error: segments.open: protocol violation: a line that is not a JSON "
                     "object (opening store... ok)");
}

TEST(FakeDrivers, HARNESS_16_AnAnswerToAnIdNotInFlightIsAProtocolViolation) {
  harness::record_spec("Driver", "HARNESS-16");
  const ConformanceRun run = run_conformance(fake_candidate("wrong-id"), "SegmentIdentity.R1_Put*");
  // Request 4 (after the hellos for versions 3 and 2, refused, and the one
  // for version 1), answered as 1004.
  expect_errors(run, "driver error: segments.open: protocol violation: an answer to id 1004, "
                     "which is not in flight");
}

TEST(FakeDrivers, HARNESS_17_AnAdvertisedCapabilityMustWork) {
  harness::record_spec("Driver", "HARNESS-17");
  // A backend in hello that cannot be opened errs; it is not skipped.
  const ConformanceRun backend =
      run_conformance(fake_candidate("false-capability"), "SegmentIdentity.R1_Put*/sqlite");
  expect_errors(backend, "driver error: segments.open: the driver answered with error "
                         "ssp.unsupported: this fake has no SQLite backend");
  // hasher: true, but the put never asks for the injected content address.
  const ConformanceRun hasher =
      run_conformance(fake_candidate("false-capability"), "SegmentIdentity.R6_*/memory");
  expect_errors(hasher, "driver error: segments.put: protocol violation: a put succeeded after "
                        "asking for its content address 0 times");
}

TEST(FakeDrivers, HARNESS_26_AMechanismTheDriverDoesNotDeclareSkipsTheTest) {
  harness::record_spec("Driver", "HARNESS-26");
  // Hook points (SC-2), the injected hasher (R6 and R6-REF, R8, the model) and
  // the read-only open (SC-1), each asked for at its gate.
  const ConformanceRun run = run_conformance(
      fake_candidate("no-options"),
      "SegmentStoreContract.*/memory:SegmentIdentity.R6_*/memory:SegmentIdentity.R8_*/memory:"
      "PropModel.*/memory");
  EXPECT_EQ(count(run, Outcome::errored), 0) << run.output;
  EXPECT_EQ(count(run, Outcome::failed), 0) << run.output;
  EXPECT_EQ(count(run, Outcome::skipped), 11) << run.output;
  EXPECT_EQ(count(run, Outcome::passed), 0) << run.output;
  // Nothing ran, so the run is not a pass (HARNESS-50), and says so.
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_THAT(run.output,
              HasSubstr("not a pass: the run did not exercise what it must (exit status 2):\n"
                        "  no test ran: every one of the 11 selected was skipped\n"));
  for (const char* reason :
       {"candidate fake-no-options does not implement parking at hook points",
        "candidate fake-no-options does not implement an injected content hasher",
        "candidate fake-no-options does not implement a read-only open of the segment store"}) {
    EXPECT_THAT(run.output, HasSubstr(reason));
  }
  EXPECT_THAT(run.output, ::testing::Not(HasSubstr("harness error")));
}

// A driver that declares no area and no backend: every test skips, and a run
// that exercised nothing is not a pass. (HARNESS-26 is the same for a driver
// that lacks what the selected tests need.)
TEST(FakeDrivers, HARNESS_50_ARunThatExercisedNothingIsNotAPass) {
  harness::record_spec("Driver", "HARNESS-50");
  const ConformanceRun nothing =
      run_conformance(fake_candidate("declares-nothing"), "SegmentIdentity.R1_Put*:PushRows.*");
  EXPECT_EQ(nothing.exit_code, 2) << nothing.output;
  EXPECT_EQ(count(nothing, Outcome::passed), 0) << nothing.output;
  EXPECT_EQ(count(nothing, Outcome::failed) + count(nothing, Outcome::errored), 0)
      << nothing.output;
  EXPECT_GT(count(nothing, Outcome::skipped), 10) << nothing.output;
  EXPECT_THAT(nothing.output, HasSubstr("  no test ran: every one of the "));
}

TEST(FakeDrivers, HARNESS_33_AVersionOneDriverKeepsWorkingAndItsPushTestsSkipSayingWhy) {
  harness::record_spec("Driver", "HARNESS-33");
  const ConformanceRun run = run_conformance(
      fake_candidate("protocol-1-only"),
      // Marker's test exercises the storage areas a version-1 driver declares
      // (a 0.22 row, so under profile 0.22); without it those areas would have
      // run nothing, which is not a pass (HARNESS-50).
      "SegmentIdentity.R1_Put*/sqlite:Marker.B_2_*/sqlite:PushRows.PUSH_3_Insert*/sqlite:"
      "CommitLog.*/sqlite",
      {"SSP_REFERENCE_DRIVER=" + std::string(SSP_REFERENCE_DRIVER), "SSP_PROFILE=0.22"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(count(run, Outcome::errored), 0) << run.output;
  EXPECT_EQ(count(run, Outcome::failed), 0) << run.output;
  ASSERT_TRUE(run.results.contains("SegmentIdentity.R1_PutReturnsContentAddressLengthAndTimes/sqlite"))
      << run.output;
  EXPECT_EQ(run.results.at("SegmentIdentity.R1_PutReturnsContentAddressLengthAndTimes/sqlite"),
            Outcome::passed);
  ASSERT_TRUE(run.results.contains("PushRows.PUSH_3_InsertIsVersionOneAndEachAppliedUpsertAddsOne/sqlite"))
      << run.output;
  int push_tests = 0;
  for (const auto& [test, outcome] : run.results) {
    if (test.starts_with("SegmentIdentity.") || test.starts_with("Marker.")) continue;
    ++push_tests;
    EXPECT_EQ(outcome, Outcome::skipped) << test;
  }
  EXPECT_GT(push_tests, 1) << run.output;
  EXPECT_THAT(run.output, HasSubstr("the driver speaks protocol version 1, which has no push methods"));
}

// The push fakes (fakes/push_fault_driver.cpp), each caught by the tests
// named: the run fails (or errs, for a broken protocol) and never passes.
TEST(FakeDrivers, HARNESS_34_EachWrongPushDriverIsCaught) {
  harness::record_spec("Driver", "HARNESS-34");
  struct Fault {
    const char* name;
    const char* filter;
    const char* caught_by;  // a test that must not pass
    int exit_code;
  };
  for (const Fault& fault :
       {Fault{"commits-before-validating", "PushValidators.PUSH_VAL_4_*/sqlite",
              "PushValidators.PUSH_VAL_4_AnUnexpectedThrowIsAConstraintViolation/sqlite", 1},
        Fault{"applied-for-replay", "PushResults.PUSH_5_*/sqlite",
              "PushResults.PUSH_5_ARepeatedCommitIdReplaysWithoutRunningAgain/sqlite", 1},
        Fault{"skips-a-hook-point", "PushInput.PUSH_HOOK_1_*/sqlite",
              "PushInput.PUSH_HOOK_1_HookPointsComeInTheFixedOrderAndTheClockValueStampsTheOutcome/"
              "sqlite",
              2},
        Fault{"upsert-loses-its-error", "PushTransaction.SCAN_1_*/sqlite",
              "PushTransaction.SCAN_1_REL_ScanSeesStagedRowsInRowIdOrderAndPages/sqlite", 1},
        // The candidate's invalid answer, relayed as
        // ssp.invalid_result, is D-4's failure (exit 1), not a driver error.
        Fault{"relays-an-invalid-stored-result", "CommitLog.D_4_*/sqlite",
              "CommitLog.D_4_AnUnreadableStoredResultIsAnIdempotencyCacheMiss/sqlite", 1}}) {
    SCOPED_TRACE(fault.name);
    // Profile 0.22: most of what these fakes break is the release's push
    // behaviour, which SSP2 states without a keyword (docs/decisions.md,
    // "Sources of requirement").
    const ConformanceRun run =
        run_conformance("exec:'" + std::string(SSP_FAKE_PUSH_DRIVER) + "' " + fault.name,
                        fault.filter, {"SSP_PROFILE=0.22"});
    EXPECT_EQ(run.exit_code, fault.exit_code) << run.output;
    ASSERT_TRUE(run.results.contains(fault.caught_by)) << run.output;
    EXPECT_NE(run.results.at(fault.caught_by), Outcome::passed) << run.output;
    EXPECT_NE(run.results.at(fault.caught_by), Outcome::skipped) << run.output;
  }
}

TEST(FakeDrivers, HARNESS_18_RightShapedWrongAnswersFailWithoutErrors) {
  harness::record_spec("Driver", "HARNESS-18");
  const ConformanceRun run =
      run_conformance(fake_candidate("wrong-answers"), "SegmentIdentity.*/memory");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_EQ(count(run, Outcome::errored), 0) << "the protocol was followed: " << run.output;
  for (const char* test : {"SegmentIdentity.R1_PutReturnsContentAddressLengthAndTimes/memory",
                           "SegmentIdentity.R2_FirstPutRoundTripsRecordAndExactBytes/memory",
                           "SegmentIdentity.R3_RowsRecordRoundTripsBothCursors/memory"}) {
    ASSERT_TRUE(run.results.contains(test)) << test;
    EXPECT_EQ(run.results.at(test), Outcome::failed) << test;
  }
}

}  // namespace
}  // namespace ssp::driver_tests
