// require_found and require_opened: an absent answer fails the test at the
// caller's line and ends it; a present one is handed back unchanged
// (docs/requirements/harness.md, HARNESS-9).
#include "harness/util/require_found.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>

#include "harness/catalog/spec.hpp"

namespace ssp::harness {
namespace {

using ::testing::HasSubstr;

// The failures `action` records, with the test's own reporter set aside.
template <typename Action>
std::vector<::testing::TestPartResult> failures_of(Action action) {
  ::testing::TestPartResultArray results;
  {
    const ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
    action();
  }
  std::vector<::testing::TestPartResult> failures;
  for (int i = 0; i < results.size(); ++i) failures.push_back(results.GetTestPartResult(i));
  return failures;
}

TEST(RequireFound, HARNESS_9_AnAbsentAnswerFailsAtTheCallersLineAndEndsTheTest) {
  record_spec("Harness", "HARNESS-9");
  EXPECT_EQ(require_found(std::optional<std::string>("x"), "get(x)"), "x");
  auto opened = std::make_unique<int>(7);
  int* const address = opened.get();
  EXPECT_EQ(require_opened(std::move(opened), "store").get(), address);

  int line = 0;
  bool ended = false;
  const auto absent = failures_of([&] {
    try {
      line = __LINE__ + 1;
      require_found(std::optional<int>(), "find(key)");
    } catch (const AnswerMissing& missing) {
      ended = true;
      EXPECT_THAT(missing.what(), HasSubstr("find(key)"));
    }
  });
  EXPECT_TRUE(ended) << "an absent answer must end the test";
  ASSERT_EQ(absent.size(), 1u);
  EXPECT_TRUE(absent[0].failed());
  EXPECT_EQ(absent[0].line_number(), line);
  EXPECT_THAT(absent[0].file_name(), HasSubstr("require_found_test.cpp"));
  EXPECT_THAT(absent[0].message(), HasSubstr("the candidate answered nothing to find(key)"));

  const auto unopened = failures_of([&] {
    EXPECT_THROW(require_opened(std::unique_ptr<int>(), "segment store"), AnswerMissing);
  });
  ASSERT_EQ(unopened.size(), 1u);
  EXPECT_THAT(unopened[0].message(), HasSubstr("the candidate opened no segment store"));
}

}  // namespace
}  // namespace ssp::harness
