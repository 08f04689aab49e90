// The per-section report (harness/verdict/section_report.hpp, its text in
// harness/verdict/section_table.hpp): columns line up whatever bytes a section name
// takes (REPORT-1), every skipped test is listed with its reason (REPORT-2),
// and a real run prints both (REPORT-3); driver errors have their own column
// and count among the failed in the closing line. Expected texts are written out by hand.
#include <gmock/gmock.h>

#include <cstdio>

#include "harness/catalog/spec.hpp"
#include "harness/verdict/section_report.hpp"
#include "harness/verdict/section_table.hpp"

namespace ssp::harness {
namespace {

TEST(SectionTable, REPORT_1_ColumnsLineUpWhenASectionNameHasAMultiByteCharacter) {
  record_spec("Catalog", "REPORT-1");
  EXPECT_EQ(display_width(""), 0u);
  EXPECT_EQ(display_width("section"), 7u);
  EXPECT_EQ(display_width("\u00a75.1"), 4u);      // § is 2 bytes, 1 column
  EXPECT_EQ(display_width("\u20ac"), 1u);         // 3 bytes
  EXPECT_EQ(display_width("\U0001F600x"), 2u);    // 4 bytes + 1
  // "Conventions" (11 columns) sets the width; "§10.1" is 6 bytes but 5 columns.
  const SectionTallies by_section = {
      {"Catalog", {2, 0, 0}},
      {"Conventions", {3, 0, 0}},
      {"\u00a710.1", {2, 1, 0}},
      {"\u00a75.1", {117, 0, 28}},
      {"\u00a75.5", {.passed = 4, .errors = 2}},
  };
  // The closing line shows the totals it is given: a test of two sections is
  // in two rows but counts once.
  const SectionTally total = {.passed = 128, .failed = 1, .skipped = 28, .errors = 2};
  // Sections in the spec's order (§5.1 before §10.1), named ones after them.
  EXPECT_EQ(format_section_table(by_section, total, {}),
            "\n"
            "SSP2 conformance by section\n"
            "  section      passed  failed  errors   xfail  skipped  warned  ref-ok ref-fail\n"
            "  \u00a75.1            117       0       0       0       28       0       0        0\n"
            "  \u00a75.5              4       0       2       0        0       0       0        0  "
            "ERROR\n"
            "  \u00a710.1             2       1       0       0        0       0       0        0  "
            "FAILED\n"
            "  Catalog           2       0       0       0        0       0       0        0\n"
            "  Conventions       3       0       0       0        0       0       0        0\n"
            "\n"
            "128 passed, 3 failed, 28 skipped\n"
            "2 of the failed are errors: the candidate's driver broke the protocol "
            "(docs/driver-protocol.md)\n");
}

TEST(SectionTable, REPORT_2_EverySkippedTestIsListedWithItsReason) {
  record_spec("Catalog", "REPORT-2");
  const std::string table = format_section_table(
      {{"\u00a75.1", {0, 0, 2}}}, {0, 0, 2},
      {{"Suite.A_1_X/memory", "memory backend has no SQL tables: needs SQL"},
       {"Suite.A_2_Y/postgres", "SSP_PG_DSN is not set\nrun under scripts/with-postgres"}});
  EXPECT_EQ(table,
            "\n"
            "SSP2 conformance by section\n"
            "  section  passed  failed  errors   xfail  skipped  warned  ref-ok ref-fail\n"
            "  \u00a75.1          0       0       0       0        2       0       0        0\n"
            "\n"
            "0 passed, 0 failed, 2 skipped\n"
            "\n"
            "skipped:\n"
            "  Suite.A_1_X/memory: memory backend has no SQL tables: needs SQL\n"
            "  Suite.A_2_Y/postgres: SSP_PG_DSN is not set run under scripts/with-postgres\n");
}

TEST(SectionTable, REPORT_3_ARunEndsWithTheTableAndItsSkippedTests) {
  record_spec("Catalog", "REPORT-3");
  // The built suite, on one test that skips on memory and two that pass (one
  // asks the candidate, so the run exercised it); whole, even when this run
  // is one of CTest's shards.
  const std::string command =
      "env -u GTEST_TOTAL_SHARDS -u GTEST_SHARD_INDEX SSP_PROFILE=spec '" SSP_CONFORMANCE
      "' --gtest_brief=1 --gtest_filter='SegmentIdentity.R7_*/memory:"
      "SegmentIdentity.R1_Put*/memory:Catalog.TRACE_2_*' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0) << out;
  EXPECT_THAT(
      out, ::testing::HasSubstr(
               "\nSSP2 conformance by section\n"
               "  section  passed  failed  errors   xfail  skipped  warned  ref-ok ref-fail\n"
               "  \u00a75.1          1       0       0       0        1       0       0        0\n"
               "  Catalog       1       0       0       0        0       0       0        0\n"
               "\n"
               "2 passed, 0 failed, 1 skipped\n"
               "profile spec: MUST failures count; SSP_PROFILE=0.22 adds the 0.22 release's "
               "rows, SSP_PROFILE=reference every level\n"
               "\n"
               "skipped:\n"
               "  SegmentIdentity.R7_CollisionWithCorruptedStoredBytes"
               "IsRefused/memory: memory backend has no SQL tables: "
               "the corruption is an UPDATE of the stored bytes\n"))
      << out;
}

TEST(SectionTable, REPORT_4_WarningsReferenceLevelAndWhatElseFailedAreSaidApart) {
  record_spec("Catalog", "REPORT-4");
  const SectionTallies by_section = {
      {"\u00a75.1",
       {.passed = 5,
        .failed = 1,
        .skipped = 1,
        .harness_errors = 1,
        .expected = 1,
        .warned = 2,
        .reference_passed = 3,
        .reference_failed = 4}},
  };
  ExpectationNotes notes;
  notes.expected_failures = {{"S.R1_A/memory", "known"}};
  notes.stale = {{"S.R7_B/memory", "skipped, so the entry excuses nothing (old)"}};
  notes.outside_tests = {{"S (suite set-up or tear-down)", "boom"}};
  notes.harness_errors = {{"S.R2_C/memory", "harness error: its own SQL is wrong"}};
  notes.profile_line = "profile spec: MUST failures count; SSP_PROFILE=reference counts every level";
  EXPECT_EQ(
      format_section_table(by_section, by_section.begin()->second, {{"S.R7_B/memory", "no SQL"}},
                           notes),
      "\n"
      "SSP2 conformance by section\n"
      "  section  passed  failed  errors   xfail  skipped  warned  ref-ok ref-fail\n"
      "  \u00a75.1          5       1       1       1        1       2       3        4  ERROR\n"
      "\n"
      "5 passed, 3 failed, 1 skipped\n"
      "1 of the failed are harness errors: a bug of the suite, not the candidate's failure\n"
      "1 expected failures (the candidate's expectations file), not counted as failed\n"
      "2 SHOULD tests failed: warnings, not counted as failed\n"
      "not counted by the profile (levels 0.22 and reference: the release's behaviour, our "
      "decisions): 3 passed, 4 failed\n"
      "1 failures outside every test, counted as failed\n"
      "profile spec: MUST failures count; SSP_PROFILE=reference counts every level\n"
      "\n"
      "skipped:\n"
      "  S.R7_B/memory: no SQL\n"
      "\n"
      "expected failures:\n"
      "  S.R1_A/memory: known\n"
      "\n"
      "stale expectations (listed as expected failures, but skipped):\n"
      "  S.R7_B/memory: skipped, so the entry excuses nothing (old)\n"
      "\n"
      "failures outside every test (counted as failed):\n"
      "  S (suite set-up or tear-down): boom\n"
      "\n"
      "harness errors (a bug of the suite; please report it):\n"
      "  S.R2_C/memory: harness error: its own SQL is wrong\n");
}

TEST(SectionTable, HARNESS_45_AnExcusedFailureHidesNoOtherFailureGoogleTestCounted) {
  record_spec("Harness", "HARNESS-45");
  // One expected failure; GoogleTest counts two failed tests and fails the run.
  const SectionTally one_excused = {.passed = 5, .expected = 1};
  EXPECT_EQ(run_exit_status(one_excused, false, 2, 1), 1) << "a failure no record excuses";
  EXPECT_EQ(run_exit_status(one_excused, false, 1, 1), 0) << "the excused failure alone";
  const SectionTally excused_each_way = {.expected = 1, .warned = 1, .reference_failed = 1};
  EXPECT_EQ(run_exit_status(excused_each_way, false, 3, 1), 0);
  EXPECT_EQ(run_exit_status(excused_each_way, false, 4, 1), 1);
  // What decided the run before stands.
  EXPECT_EQ(run_exit_status({.passed = 5}, false, 0, 1), 1) << "GoogleTest's own failure";
  EXPECT_EQ(run_exit_status({.passed = 5}, false, 0, 0), 0);
  EXPECT_EQ(run_exit_status({.failed = 1, .expected = 1}, false, 2, 1), 1);
  EXPECT_EQ(run_exit_status(one_excused, true, 1, 1), 1) << "a failure outside every test";
  EXPECT_EQ(run_exit_status({.failed = 1, .errors = 1}, false, 2, 1), 2);
  EXPECT_EQ(run_exit_status({.harness_errors = 1, .expected = 1}, false, 2, 1), 2);
}

}  // namespace
}  // namespace ssp::harness
