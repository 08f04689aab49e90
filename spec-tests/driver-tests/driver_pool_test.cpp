// The harness reuses a driver process for the next store once its store is
// closed (docs/driver-protocol.md, "Processes and concurrency"), and starts a
// process per store when SSP_DRIVER_REUSE=0. Seen from outside: the driver
// traffic of a run through ssp-reference-driver (SSP_DRIVER_TRACE=1).
#include <gmock/gmock.h>

#include <map>
#include <regex>
#include <sstream>

#include "conformance_run.hpp"
#include "harness/catalog/spec.hpp"

namespace ssp::driver_tests {
namespace {

// For every driver process of a traced run: how many hellos and how many
// segments.open requests the harness sent it.
struct ProcessTraffic {
  int hellos = 0;
  int opens = 0;
};

std::map<int, ProcessTraffic> traffic_of(const std::string& output) {
  static const std::regex sent(R"re(^\[driver (\d+)\] <- \{"id":\d+,"method":"([a-z_.]+)")re");
  std::map<int, ProcessTraffic> traffic;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (!std::regex_search(line, match, sent)) continue;
    ProcessTraffic& process = traffic[std::stoi(match[1])];
    if (match[2] == "hello") ++process.hellos;
    if (match[2] == "segments.open") ++process.opens;
  }
  return traffic;
}

int total_opens(const std::map<int, ProcessTraffic>& traffic) {
  int opens = 0;
  for (const auto& [pid, process] : traffic) opens += process.opens;
  return opens;
}

const char* const kSlice = "SegmentIdentity.*/memory";

TEST(DriverPool, HARNESS_24_AClosedStoresProcessServesTheNextOpen) {
  harness::record_spec("Driver", "HARNESS-24");
  const ConformanceRun run =
      run_conformance("exec:'" SSP_REFERENCE_DRIVER "'", kSlice, {"SSP_DRIVER_TRACE=1"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto traffic = traffic_of(run.output);
  const int opens = total_opens(traffic);
  ASSERT_GT(opens, 5) << "the slice opens stores in several tests: " << run.output;
  int serving = 0;
  for (const auto& [pid, process] : traffic) {
    EXPECT_EQ(process.hellos, 1) << "process " << pid << " says hello once, before its first open";
    serving += process.opens > 0 ? 1 : 0;
  }
  // Tests open stores one after another: a process per store would make
  // these equal.
  EXPECT_LT(serving, opens / 2) << opens << " opens";
}

TEST(DriverPool, HARNESS_24_ReuseOffStartsAProcessPerStore) {
  harness::record_spec("Driver", "HARNESS-24");
  const ConformanceRun run = run_conformance("exec:'" SSP_REFERENCE_DRIVER "'", kSlice,
                                             {"SSP_DRIVER_TRACE=1", "SSP_DRIVER_REUSE=0"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto traffic = traffic_of(run.output);
  ASSERT_GT(total_opens(traffic), 5) << run.output;
  for (const auto& [pid, process] : traffic) {
    EXPECT_EQ(process.hellos, 1) << "process " << pid;
    EXPECT_LE(process.opens, 1) << "process " << pid << " served more than one store";
  }
}

TEST(DriverPool, HARNESS_48_AProcessWhoseCloseFailedIsNeverReused) {
  harness::record_spec("Driver", "HARNESS-48");
  // Every close of this fake answers an error: each test that closes a store
  // errs (a driver error, exit 2), and its process must serve no other store.
  const ConformanceRun run =
      run_conformance("exec:'" SSP_FAKE_PUSH_DRIVER "' close-fails", kSlice, {"SSP_DRIVER_TRACE=1"});
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_THAT(run.output, ::testing::HasSubstr("fails after closing the store")) << run.output;
  const auto traffic = traffic_of(run.output);
  ASSERT_GT(total_opens(traffic), 5) << run.output;
  for (const auto& [pid, process] : traffic) {
    EXPECT_LE(process.opens, 1) << "process " << pid << " served a store after its close failed";
  }
}

}  // namespace
}  // namespace ssp::driver_tests
