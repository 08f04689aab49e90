// Entry point of the suites: GoogleTest plus the per-section report.
#include <gtest/gtest.h>

#include "harness/catalog.hpp"
#include "harness/section_report.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::UnitTest::GetInstance()->listeners().Append(new ssp::harness::SectionReport(
      ssp::harness::catalog_sections(std::string(SSP_SOURCE_DIR) + "/docs/requirements")));
  return RUN_ALL_TESTS();
}
