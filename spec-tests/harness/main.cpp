// Entry point of ssp-conformance: GoogleTest plus the per-section report.
#include <gtest/gtest.h>

#include "harness/section_report.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::UnitTest::GetInstance()->listeners().Append(new ssp::harness::SectionReport);
  return RUN_ALL_TESTS();
}
