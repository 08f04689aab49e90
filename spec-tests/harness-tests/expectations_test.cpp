// A candidate's expectations file (harness/verdict/expectations.hpp) run through the
// built ssp-conformance: an expected failure is reported as such and does not
// fail the run, an expected failure that passes fails it, and a file that
// names no test or is malformed stops the run (HARNESS-20 … HARNESS-22).
#include <gmock/gmock.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <tuple>
#include <vector>

#include "harness/catalog/requirement_level.hpp"
#include "harness/catalog/spec.hpp"
#include "harness/util/child_process.hpp"
#include "harness/verdict/verdict_profile.hpp"

namespace ssp::harness {
namespace {

using ::testing::HasSubstr;

// A MUST test that passes on the reference and fails on wrong:finds-nothing.
const std::string kTest = "SegmentReuse.R31_FindReturnsTheLiveWholeTablePublication/memory";
// A MUST test on memory that the reference and every wrong candidate pass (it
// asks no store): a run whose other tests are skipped or do not count still
// exercises the candidate on the backend (docs/harness.md, "What a run
// exercised").
const std::string kCountedPass =
    "SignedUrl.SU_R2_AudienceIsAStableKeyedDerivationOfThePartition/memory";

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
         R"(", "requirement": "R31", "backend": "memory", "reason": "find answers nothing",)"
         R"( "spec": "§5.3"}]})";
}

ChildRun run_with(const std::string& candidate, const ExpectationsFile& file) {
  return run_child(SSP_CONFORMANCE, {"--gtest_brief=1", "--gtest_filter=" + kTest},
                   {"SSP_CANDIDATE=" + candidate, "SSP_EXPECTATIONS=" + file.path(), "SSP_PROFILE="});
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
  const ExpectationsFile stale(expecting("SegmentReuse.R31_NoSuchTest/memory"));
  const ChildRun named = run_with("reference", stale);
  ASSERT_TRUE(named.exited);
  EXPECT_EQ(named.exit_code, 2);
  EXPECT_THAT(named.err, HasSubstr("no test is named SegmentReuse.R31_NoSuchTest/memory"));
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

TEST(Expectations, HARNESS_49_AFileThatIsNotJsonIsReportedInOurWordsWithItsLine) {
  record_spec("Harness", "HARNESS-49");
  const ExpectationsFile broken("{\n  \"expectedFailures\": [\n    {\"test\": x}\n  ]\n}\n");
  const std::string where = "expectations file " + broken.path() + ": line 3, column 14: ";
  // Named by the flag the user typed ...
  const ChildRun flag = run_child(SSP_CONFORMANCE, {"--gtest_brief=1", "--gtest_filter=" + kTest,
                                                    "--expect", broken.path()});
  ASSERT_TRUE(flag.exited);
  EXPECT_EQ(flag.exit_code, 2);
  EXPECT_THAT(flag.err, HasSubstr("--expect: " + where + "not JSON there (an unexpected 'x')"));
  EXPECT_THAT(flag.err, ::testing::Not(HasSubstr("syntax error")));
  EXPECT_THAT(flag.err, ::testing::Not(HasSubstr("last read")));
  // ... or by the variable.
  const ChildRun variable = run_with("reference", broken);
  ASSERT_TRUE(variable.exited);
  EXPECT_EQ(variable.exit_code, 2);
  EXPECT_THAT(variable.err, HasSubstr("SSP_EXPECTATIONS: " + where));
  // A file that stops inside its value.
  const ExpectationsFile cut("{\"expectedFailures\": [");
  const ChildRun ended = run_with("reference", cut);
  ASSERT_TRUE(ended.exited);
  EXPECT_EQ(ended.exit_code, 2);
  EXPECT_THAT(ended.err, HasSubstr(cut.path() + ": the text ends before its JSON value does"));
}

// Two tests fail on wrong:finds-nothing (both MUST); the file excuses one.
TEST(Expectations, HARNESS_27_AnExpectedFailureExcusesOnlyTheTestItNames) {
  record_spec("Harness", "HARNESS-27");
  const std::string other = "SegmentIdentity.R1_PutReturnsContentAddressLengthAndTimes/memory";
  const ExpectationsFile file(expecting(kTest));
  const ChildRun run = run_child(
      SSP_CONFORMANCE, {"--gtest_brief=1", "--gtest_filter=" + kTest + ":" + other},
      {"SSP_CANDIDATE=wrong:finds-nothing", "SSP_EXPECTATIONS=" + file.path(), "SSP_PROFILE="});
  ASSERT_TRUE(run.exited) << "ended by signal " << run.signal;
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("\n0 passed, 1 failed, 0 skipped\n"));
  EXPECT_THAT(run.out, HasSubstr("\nexpected failures:\n  " + kTest + ": find answers nothing\n"));
}

// The old verdict returned 0 whenever an expected failure existed, which hid
// a failure that no test owned.
TEST(Expectations, HARNESS_28_AFailureOutsideEveryTestFailsTheRunDespiteExpectedFailures) {
  record_spec("Harness", "HARNESS-28");
  const ExpectationsFile file(expecting(kTest));
  const ChildRun run = run_child(SSP_CONFORMANCE, {"--gtest_brief=1", "--gtest_filter=" + kTest},
                                 {"SSP_CANDIDATE=wrong:finds-nothing",
                                  "SSP_EXPECTATIONS=" + file.path(),
                                  "SSP_INJECT_FAILURE_OUTSIDE_TESTS=1", "SSP_PROFILE="});
  ASSERT_TRUE(run.exited) << "ended by signal " << run.signal;
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("\n0 passed, 1 failed, 0 skipped\n"));
  EXPECT_THAT(run.out, HasSubstr("\nfailures outside every test (counted as failed):\n"
                                 "  (the test program, outside every suite): a failure injected "
                                 "outside every test"));
  // Without the injection the same run passes: the injection made it fail.
  const ChildRun plain = run_with("wrong:finds-nothing", file);
  ASSERT_TRUE(plain.exited);
  EXPECT_EQ(plain.exit_code, 0) << plain.out;
}

TEST(Expectations, HARNESS_29_AnEntryWhoseTestWasSkippedIsReportedAsStale) {
  record_spec("Harness", "HARNESS-29");
  // R7 corrupts stored bytes with SQL: skipped on memory.
  const std::string skipped =
      "SegmentIdentity.R7_CollisionWithCorruptedStoredBytesIsRefused/memory";
  const ExpectationsFile file(expecting(skipped));
  const ChildRun run =
      run_child(SSP_CONFORMANCE, {"--gtest_brief=1", "--gtest_filter=" + skipped + ":" + kCountedPass},
                {"SSP_CANDIDATE=reference", "SSP_EXPECTATIONS=" + file.path()});
  ASSERT_TRUE(run.exited) << "ended by signal " << run.signal;
  EXPECT_EQ(run.exit_code, 0) << "a skip is not a failure: " << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("\nstale expectations (listed as expected failures, but "
                                 "skipped):\n  " + skipped +
                                 ": skipped, so the entry excuses nothing (find answers nothing)\n"));
}

// R34 is reference level (D5), R17 0.22, R31 MUST, SU-R10 SHOULD (broken by
// wrong:long-urls alone).
TEST(Expectations, HARNESS_30_TheProfileSaysWhichLevelsFailTheRun) {
  record_spec("Harness", "HARNESS-30");
  const std::string reference_level =
      "SegmentReuse.R34_BetweenSegmentsTheLongestLivedWinsThenTheSmallestId/memory";
  const std::string release_level = "SegmentContexts.R17_TwoPartitionsKeepTwoPublications/memory";
  const auto run_at = [&](const std::string& candidate, const std::string& filter,
                          const std::string& profile) {
    return run_child(SSP_CONFORMANCE,
                     {"--gtest_brief=1", "--gtest_filter=" + filter + ":" + kCountedPass},
                     {"SSP_CANDIDATE=" + candidate, "SSP_EXPECTATIONS=", "SSP_PROFILE=" + profile});
  };
  const ChildRun spec = run_at("wrong:finds-nothing", reference_level + ":" + release_level, "");
  ASSERT_TRUE(spec.exited);
  EXPECT_EQ(spec.exit_code, 0) << spec.out;
  EXPECT_THAT(spec.out, HasSubstr("\n1 passed, 0 failed, 0 skipped\nnot counted by the profile "
                                  "(levels 0.22 and reference: the release's behaviour, our "
                                  "decisions): 0 passed, 2 failed\n"));
  const ChildRun release = run_at("wrong:finds-nothing", reference_level + ":" + release_level,
                                  "0.22");
  ASSERT_TRUE(release.exited);
  EXPECT_EQ(release.exit_code, 1) << release.out;
  EXPECT_THAT(release.out, HasSubstr("\n1 passed, 1 failed, 0 skipped\nnot counted by the "
                                     "profile (levels 0.22 and reference: the release's "
                                     "behaviour, our decisions): 0 passed, 1 failed\n"));
  const ChildRun reference = run_at("wrong:finds-nothing", reference_level, "reference");
  ASSERT_TRUE(reference.exited);
  EXPECT_EQ(reference.exit_code, 1) << reference.out;
  EXPECT_THAT(reference.out, HasSubstr("\n1 passed, 1 failed, 0 skipped\n"));

  // A SHOULD failure warns under spec and 0.22, and fails the run under reference.
  const std::string should_level =
      "SignedUrl.SU_R10_MintAndSignerRefuseOutOfContractArguments/memory";
  for (const char* profile : {"spec", "0.22"}) {
    const ChildRun warned = run_at("wrong:long-urls", should_level, profile);
    ASSERT_TRUE(warned.exited);
    EXPECT_EQ(warned.exit_code, 0) << profile << warned.out;
    EXPECT_THAT(warned.out, HasSubstr("\n1 passed, 0 failed, 0 skipped\n1 SHOULD tests failed: "
                                      "warnings, not counted as failed\n"))
        << profile;
  }
  const ChildRun strict = run_at("wrong:long-urls", should_level, "reference");
  ASSERT_TRUE(strict.exited);
  EXPECT_EQ(strict.exit_code, 1) << strict.out;
  EXPECT_THAT(strict.out, HasSubstr("\n1 passed, 1 failed, 0 skipped\n"));

  const ChildRun must = run_at("wrong:finds-nothing", kTest, "spec");
  ASSERT_TRUE(must.exited);
  EXPECT_EQ(must.exit_code, 1) << must.out;

  const ChildRun unknown = run_at("reference", kTest, "strict");
  ASSERT_TRUE(unknown.exited);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("SSP_PROFILE is 'strict'; accepted: spec"));
}

// The rule behind the runs above, for every profile and level: spec counts
// MUST, 0.22 adds the release's rows, reference counts everything.
TEST(Expectations, HARNESS_30_EachProfileCountsItsLevels) {
  record_spec("Harness", "HARNESS-30");
  using L = RequirementLevel;
  using P = VerdictProfile;
  const std::vector<std::tuple<P, L, bool>> table = {
      {P::spec, L::must, true},         {P::spec, L::should, false},
      {P::spec, L::release, false},     {P::spec, L::reference, false},
      {P::release, L::must, true},      {P::release, L::should, false},
      {P::release, L::release, true},   {P::release, L::reference, false},
      {P::reference, L::must, true},    {P::reference, L::should, true},
      {P::reference, L::release, true}, {P::reference, L::reference, true},
  };
  for (const auto& [profile, level, fails] : table) {
    EXPECT_EQ(failure_fails_the_run(profile, level), fails)
        << verdict_profile_name(profile) << " / " << requirement_level_name(level);
  }
  EXPECT_EQ(parse_requirement_level("0.22 (diff storage.ts @@1)"), L::release);
  EXPECT_EQ(parse_requirement_level("MUST (\u00a76.4 MUST#2)"), L::must);
  EXPECT_EQ(parse_requirement_level("0.22 ()"), std::nullopt);
  EXPECT_EQ(parse_requirement_level("0.2"), std::nullopt);
  EXPECT_EQ(level_sources("MUST (\u00a76.4 MUST#2, \u00a72.1 MUST#1)"),
            (std::vector<std::string>{"\u00a76.4 MUST#2", "\u00a72.1 MUST#1"}));
}

}  // namespace
}  // namespace ssp::harness
