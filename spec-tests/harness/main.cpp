// Entry point of the suites: GoogleTest plus the per-section report.
#include <gtest/gtest.h>

#include "harness/candidate.hpp"
#include "harness/catalog.hpp"
#include "harness/section_report.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Chosen before any test runs, so a bad SSP_CANDIDATE stops here with a message.
  const std::string candidate = ssp::harness::current_candidate().name();
  ::testing::UnitTest::GetInstance()->listeners().Append(new ssp::harness::SectionReport(
      candidate,
      ssp::harness::catalog_sections(std::string(SSP_SOURCE_DIR) + "/docs/requirements")));
  return RUN_ALL_TESTS();
}
