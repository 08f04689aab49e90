// Entry point of the suites: GoogleTest plus the per-section report.
#include <gtest/gtest.h>

#include "harness/candidate.hpp"
#include "harness/catalog.hpp"
#include "harness/section_report.hpp"

// Exit status: 0 all passed, 1 a test failed, 2 a test erred (the candidate's
// driver broke the protocol; docs/driver-protocol.md).
int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Chosen before any test runs, so a bad SSP_CANDIDATE stops here with a
  // message. A driver that does not start is reported by every test instead.
  std::string candidate;
  try {
    candidate = ssp::harness::current_candidate().name();
  } catch (const std::exception& failure) {
    candidate = std::string("(did not start) ") + failure.what();
  }
  auto* report = new ssp::harness::SectionReport(
      candidate,
      ssp::harness::catalog_sections(std::string(SSP_SOURCE_DIR) + "/docs/requirements"));
  ::testing::UnitTest::GetInstance()->listeners().Append(report);  // gtest owns it
  const int status = RUN_ALL_TESTS();
  return report->errors() > 0 ? 2 : status;
}
