#include "harness/catalog/spec.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace ssp::harness {

void record_spec(const std::string& section, const std::string& requirement) {
  ::testing::Test::RecordProperty("spec", section);
  ::testing::Test::RecordProperty("requirement", requirement);
  std::string prefix = requirement + "_";
  std::replace(prefix.begin(), prefix.end(), '-', '_');
  const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  EXPECT_TRUE(name.rfind(prefix, 0) == 0)
      << "test " << name << " records requirement " << requirement << " but is not named "
      << prefix << "...";
}

}  // namespace ssp::harness
