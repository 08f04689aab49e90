// A candidate's expectations file (harness/expectations.hpp) run through the
// built ssp-conformance: an expected failure is reported as such and does not
// fail the run, an expected failure that passes fails it, and a file that
// names no test or is malformed stops the run (HARNESS-20 … HARNESS-22).
#include <gmock/gmock.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "harness/child_process.hpp"
#include "harness/spec.hpp"

namespace ssp::harness {
namespace {

using ::testing::HasSubstr;

// A test that passes on the reference and fails on wrong:finds-nothing.
const std::string kTest = "SegmentContexts.R17_TwoPartitionsKeepTwoPublications/memory";

// A temporary expectations file holding `text`, removed with the object.
class ExpectationsFile {
 public:
  explicit ExpectationsFile(const std::string& text) {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            ("ssp-expectations-" + std::to_string(random()) + std::to_string(random()) + ".json");
    std::ofstream(path_) << text;
  }
  ~ExpectationsFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

std::string expecting(const std::string& test) {
  return R"({"candidate": "wrong:finds-nothing", "expectedFailures": [{"test": ")" + test +
         R"(", "requirement": "R17", "backend": "memory", "reason": "find answers nothing",)"
         R"( "spec": "§2.1"}]})";
}

ChildRun run_with(const std::string& candidate, const ExpectationsFile& file) {
  return run_child(SSP_CONFORMANCE, {"--gtest_brief=1", "--gtest_filter=" + kTest},
                   {"SSP_CANDIDATE=" + candidate, "SSP_EXPECTATIONS=" + file.path()});
}

TEST(Expectations, HARNESS_20_AnExpectedFailureIsReportedAndDoesNotFailTheRun) {
  record_spec("Harness", "HARNESS-20");
  const ExpectationsFile file(expecting(kTest));
  const ChildRun run = run_with("wrong:finds-nothing", file);
  ASSERT_TRUE(run.exited) << "ended by signal " << run.signal;
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("\n0 passed, 0 failed, 0 skipped\n"));
  EXPECT_THAT(run.out, HasSubstr("\nexpected failures:\n  " + kTest + ": find answers nothing\n"));
  // Without the file the same run fails: the file, not the candidate, made it pass.
  const ChildRun plain = run_child(SSP_CONFORMANCE, {"--gtest_brief=1", "--gtest_filter=" + kTest},
                                   {"SSP_CANDIDATE=wrong:finds-nothing", "SSP_EXPECTATIONS="});
  ASSERT_TRUE(plain.exited);
  EXPECT_EQ(plain.exit_code, 1) << plain.out;
}

TEST(Expectations, HARNESS_21_AnExpectedFailureThatPassesFailsTheRun) {
  record_spec("Harness", "HARNESS-21");
  const ExpectationsFile file(expecting(kTest));
  const ChildRun run = run_with("reference", file);
  ASSERT_TRUE(run.exited) << "ended by signal " << run.signal;
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("\n0 passed, 1 failed, 0 skipped\n"));
  EXPECT_THAT(run.out, HasSubstr("\nunexpected passes (listed as expected failures; counted as "
                                 "failed):\n  " + kTest));
}

TEST(Expectations, HARNESS_22_AFileThatNamesNoTestOrIsMalformedStopsTheRun) {
  record_spec("Harness", "HARNESS-22");
  const ExpectationsFile stale(expecting("SegmentContexts.R17_NoSuchTest/memory"));
  const ChildRun named = run_with("reference", stale);
  ASSERT_TRUE(named.exited);
  EXPECT_EQ(named.exit_code, 2);
  EXPECT_THAT(named.err, HasSubstr("no test is named SegmentContexts.R17_NoSuchTest/memory"));
  EXPECT_THAT(named.out, ::testing::Not(HasSubstr("conformance by section")));

  const ExpectationsFile malformed(R"({"expectedFailures": [{"test": ")" + kTest + R"("}]})");
  const ChildRun bad = run_with("reference", malformed);
  ASSERT_TRUE(bad.exited);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("expectedFailures[0]: \"requirement\" must be a non-empty string"));

  // Edge JSON (fixtures/cases/edge_json/): a number outside binary64 is "not
  // JSON" in the harness's own words, not the JSON library's.
  const ExpectationsFile overflowing(R"({"expectedFailures": [], "version": 1e400})");
  const ChildRun overflow = run_with("reference", overflowing);
  ASSERT_TRUE(overflow.exited);
  EXPECT_EQ(overflow.exit_code, 2);
  EXPECT_THAT(overflow.err, HasSubstr(": not JSON: number overflow parsing '1e400'"));
  EXPECT_THAT(overflow.err, ::testing::Not(HasSubstr("[json.exception")));
}

}  // namespace
}  // namespace ssp::harness
