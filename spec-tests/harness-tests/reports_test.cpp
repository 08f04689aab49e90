// The reports of a run (docs/harness.md, "Reports"): a test of several
// sections counts under each (REPORT-5); junit.xml (REPORT-6), summary.json
// (REPORT-7) and summary.md (REPORT-8) say what the records say, in valid
// UTF-8; a run with --report-dir leaves all three (REPORT-9); --list
// (HARNESS-42), the progress line (HARNESS-43) and the declared capabilities
// (HARNESS-44). Expected texts are written out by hand.
#include <gmock/gmock.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/catalog/spec.hpp"
#include "harness/cli/progress_line.hpp"
#include "harness/cli/test_listing.hpp"
#include "harness/errors/harness_error.hpp"
#include "harness/gates/suite_capabilities.hpp"
#include "harness/util/child_process.hpp"
#include "harness/util/file_text.hpp"
#include "harness/util/scratch_directory.hpp"
#include "harness/util/utf8_text.hpp"
#include "harness/verdict/junit_report.hpp"
#include "harness/verdict/section_tallies.hpp"
#include "harness/verdict/summary_json.hpp"
#include "harness/verdict/summary_markdown.hpp"

namespace ssp::harness {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TestRecord record(const std::string& name, std::vector<std::string> sections, TestOutcome outcome,
                  std::string reason = "") {
  TestRecord test;
  test.name = name;
  test.catalog_name = name.substr(0, name.rfind('/'));
  test.requirement = "R1";
  test.sections = std::move(sections);
  test.backend = backend_of_test(name);
  test.outcome = outcome;
  test.reason = std::move(reason);
  return test;
}

// A run with one test of each kind of outcome.
RunSummary sample_run() {
  RunSummary run;
  run.executable = "ssp-conformance";
  run.candidate = "mine 1.0";
  run.exit_status = 1;
  run.tests = {
      record("S.R1_Both/sqlite", {"\u00a75.1", "\u00a75.5"}, TestOutcome::passed),
      record("S.R1_Fails/memory", {"\u00a75.1"}, TestOutcome::failed,
             "bytes \xff\xfe differ <here> & \"there\"\nsecond line"),
      record("S.R1_Skips/postgres", {"\u00a75.1"}, TestOutcome::skipped, "no PostgreSQL"),
      record("S.R1_Known/memory", {"\u00a75.5"}, TestOutcome::expected_fail, "known bug 7"),
      record("T.R1_Broke", {"\u00a710.2"}, TestOutcome::error, "protocol broken: bad line"),
  };
  TestRecord warning = record("S.R1_Should/sqlite", {"\u00a75.1"}, TestOutcome::failed, "late");
  warning.level = RequirementLevel::should;
  warning.counts = false;
  run.tests.push_back(warning);
  run.requirements = {{"a.md", "R1", "\u00a75.1, \u00a75.5", "MUST", {"S.R1_Both"}}};
  run.requirements[0].text = "Both sections.";
  return run;
}

TEST(Reports, REPORT_5_ATestOfSeveralSectionsCountsUnderEachAndOnceInTheTotal) {
  record_spec("Catalog", "REPORT-5");
  const RunSummary run = sample_run();
  const SectionTallies by_section = tally_by_section(run.tests);
  ASSERT_EQ(by_section.size(), 3u);
  EXPECT_EQ(by_section.begin()->first, "\u00a75.1");
  EXPECT_EQ(by_section.at("\u00a75.1").passed, 1);
  EXPECT_EQ(by_section.at("\u00a75.5").passed, 1);
  EXPECT_EQ(by_section.at("\u00a75.1").failed, 1);
  EXPECT_EQ(by_section.at("\u00a75.1").warned, 1);
  EXPECT_EQ(by_section.at("\u00a75.5").expected, 1);
  EXPECT_EQ(by_section.at("\u00a710.2").errors, 1);
  const SectionTally total = tally_of_all(run.tests);
  EXPECT_EQ(total.passed, 1) << "the two-section test counts once in the total";
  EXPECT_EQ(total.failed + total.skipped + total.expected + total.errors + total.warned, 5);
  EXPECT_EQ(section_ids("\u00a76.3, \u00a72.3,\u00a76.3 , "),
            (std::vector<std::string>{"\u00a76.3", "\u00a72.3"}));
  EXPECT_TRUE(section_before("\u00a75.9", "\u00a75.9.1"));
  EXPECT_TRUE(section_before("\u00a75.9.1", "\u00a75.10"));
  EXPECT_TRUE(section_before("\u00a711.2", "Catalog"));
}

TEST(Reports, REPORT_6_JunitCarriesPropertiesSkipsWithReasonsAndValidUtf8) {
  record_spec("Catalog", "REPORT-6");
  EXPECT_EQ(with_valid_utf8("\u00a7 ok \xc3\x28 \xed\xa0\x80 \xf4\x90\x80\x80"),
            "\u00a7 ok \ufffd( \ufffd\ufffd\ufffd \ufffd\ufffd\ufffd\ufffd");
  const std::string xml = junit_xml(sample_run());
  EXPECT_EQ(
      xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ssp-conformance\" "
                "tests=\"6\" failures=\"1\" errors=\"1\" skipped=\"2\"",
                0),
      0u)
      << xml;
  EXPECT_EQ(with_valid_utf8(xml), xml);
  for (const char* expected :
       {"<testcase name=\"R1_Both/sqlite\" classname=\"S\"",
        "<property name=\"section\" value=\"\u00a75.1, \u00a75.5\"/>",
        "<property name=\"requirement\" value=\"R1\"/>",
        "<property name=\"level\" value=\"MUST\"/>",
        "<property name=\"backend\" value=\"sqlite\"/>",
        "<property name=\"candidate\" value=\"mine 1.0\"/>",
        "<failure type=\"failed\" message=\"bytes \ufffd\ufffd differ &lt;here&gt; &amp; "
        "&quot;there&quot;\">",
        "<skipped type=\"skipped\" message=\"no PostgreSQL\"/>",
        "<skipped type=\"expected-fail\" message=\"expected failure: known bug 7\"/>",
        "<error type=\"driver-error\" message=\"protocol broken: bad line\">",
        "<system-out>failed, not counted (SHOULD under this profile): late</system-out>",
        "<property name=\"backend\" value=\"\"/>"}) {
    EXPECT_THAT(xml, HasSubstr(expected));
  }
}

TEST(Reports, REPORT_7_SummaryJsonFollowsItsSchema) {
  record_spec("Catalog", "REPORT-7");
  const auto summary = nlohmann::json::parse(summary_json(sample_run()));
  EXPECT_EQ(summary["format"], "ssp-conformance-summary");
  EXPECT_EQ(summary["version"], 1);
  EXPECT_EQ(summary["candidate"], "mine 1.0");
  EXPECT_EQ(summary["profile"], "spec");
  EXPECT_EQ(summary["exitStatus"], 1);
  EXPECT_EQ(summary["totals"],
            nlohmann::json::parse(R"({"passed": 1, "failed": 1, "failedNotCounted": 1,
              "expectedFail": 1, "unexpectedPass": 0, "skipped": 1, "error": 1})"));
  // §5.1 × memory × MUST holds the failure; the two-section pass is under
  // §5.1 × sqlite and §5.5 × sqlite; §10.2's test has no backend.
  const auto& counts = summary["counts"];
  ASSERT_EQ(counts.size(), 7u) << counts.dump(1);
  EXPECT_EQ(counts[0]["section"], "\u00a75.1");
  EXPECT_EQ(counts[0]["backend"], "memory");
  EXPECT_EQ(counts[0]["level"], "MUST");
  EXPECT_EQ(counts[0]["failed"], 1);
  EXPECT_EQ(counts[1]["backend"], "sqlite");
  EXPECT_EQ(counts[1]["passed"], 1);
  EXPECT_EQ(counts[2]["level"], "SHOULD");
  EXPECT_EQ(counts[2]["failedNotCounted"], 1);
  EXPECT_EQ(counts[6]["section"], "\u00a710.2");
  EXPECT_TRUE(counts[6]["backend"].is_null());
  const auto& failed = summary["tests"][1];
  EXPECT_EQ(failed["name"], "S.R1_Fails/memory");
  EXPECT_EQ(failed["test"], "S.R1_Fails");
  EXPECT_EQ(failed["requirement"], "R1");
  EXPECT_EQ(failed["outcome"], "failed");
  EXPECT_EQ(failed["counts"], true);
  EXPECT_EQ(failed["reason"], "bytes \ufffd\ufffd differ <here> & \"there\"\nsecond line");
  EXPECT_EQ(summary["tests"][3]["outcome"], "expected-fail");
  EXPECT_EQ(summary["requirements"][0]["sections"],
            nlohmann::json::parse(R"(["\u00a75.1", "\u00a75.5"])"));
  EXPECT_EQ(summary["requirements"][0]["text"], "Both sections.");
}

TEST(Reports, REPORT_8_SummaryMarkdownIsASectionByBackendMatrixWithItsFailures) {
  record_spec("Catalog", "REPORT-8");
  const std::string page = summary_markdown(sample_run());
  for (const char* expected :
       {"# SSP2 conformance: mine 1.0\n",
        "Verdict: **failed** (exit status 1: a test that counts failed), profile spec",
        "| section | memory | sqlite | postgres | no backend |\n|---|---|---|---|---|\n",
        "| \u00a75.1 | 0 / **1** / 0 / 0 | 1 / 0 (+1 not counted) / 0 / 0 | 0 / 0 / 0 / 1 | — |\n",
        "| \u00a75.5 | 0 / 0 / 1 / 0 | 1 / 0 / 0 / 0 | — | — |\n",
        "| \u00a710.2 | — | — | — | 0 / **1** / 0 / 0 |\n",
        "## Failures and errors\n\n- `S.R1_Fails/memory` (\u00a75.1, R1, MUST, memory): bytes "
        "\ufffd\ufffd differ &lt;here> & \"there\" second line\n- `T.R1_Broke` (\u00a710.2, R1, "
        "MUST): protocol broken: bad line\n",
        "## Failures not counted (SHOULD warnings, 0.22 and reference levels)\n\n- `S.R1_Should/sqlite`",
        "## Expected failures\n\n- `S.R1_Known/memory` (\u00a75.5, R1, MUST, memory): known bug "
        "7\n",
        "## Skipped, by reason\n\n- 1 test: no PostgreSQL (`S.R1_Skips/postgres`)\n"}) {
    EXPECT_THAT(page, HasSubstr(expected));
  }
}

// The sample run, judged what it exercised: push ran on sqlite and was all
// skipped on memory, a claim on each, PostgreSQL not reachable.
RunSummary sample_run_with_claims() {
  RunSummary run = sample_run();
  run.exit_status = 2;
  ExercisedPart on_sqlite{"push", "sqlite", 3, 1, 0, {}, 2, 2};
  ExercisedPart on_memory{"push", "memory", 0, 0, 2, {"no hooks"}, 1, 0};
  run.exercised.parts = {on_memory, on_sqlite};
  run.exercised.not_claimed = {{"scope", 4}};
  run.exercised.claims = {{{"push", "sqlite"}, 3, true}, {{"push", "postgres"}, 0, false}};
  run.exercised.unreachable = {{"postgres", "SSP_PG_DSN is not set"}};
  run.exercised.not_exercised = {"claim push@postgres: not exercised (SSP_PG_DSN is not set)"};
  return run;
}

TEST(Reports, REPORT_10_EveryReportCarriesTheClaimsAndWhatTheRunExercised) {
  record_spec("Catalog", "REPORT-10");
  const RunSummary run = sample_run_with_claims();
  const auto summary = nlohmann::json::parse(summary_json(run));
  EXPECT_EQ(summary["exercised"], nlohmann::json::parse(R"([
      {"area": "push", "backend": "memory", "ran": 0, "ranNotCounted": 0, "skipped": 2,
       "mustOwed": 1, "mustRan": 0},
      {"area": "push", "backend": "sqlite", "ran": 3, "ranNotCounted": 1, "skipped": 0,
       "mustOwed": 2, "mustRan": 2}])"));
  EXPECT_EQ(summary["notClaimed"], nlohmann::json::parse(R"({"scope": 4})"));
  EXPECT_EQ(summary["claims"], nlohmann::json::parse(R"([
      {"area": "push", "backend": "sqlite", "ran": 3, "exercised": true},
      {"area": "push", "backend": "postgres", "ran": 0, "exercised": false}])"));
  EXPECT_EQ(summary["unreachable"], nlohmann::json::parse(R"({"postgres": "SSP_PG_DSN is not set"})"));

  const std::string xml = junit_xml(run);
  EXPECT_THAT(xml, HasSubstr("tests=\"11\" failures=\"2\" errors=\"1\" skipped=\"3\""))
      << "5 cases of what was exercised: 1 failing, 1 skipped";
  for (const char* expected :
       {"<testsuite name=\"(what the run exercised)\" tests=\"5\" failures=\"1\" errors=\"0\" "
        "skipped=\"1\"",
        "<testcase name=\"push@memory\" classname=\"(what the run exercised)\"",
        "<property name=\"skipped\" value=\"2\"/>\n        <property name=\"mustOwed\" "
        "value=\"1\"/>\n        <property name=\"mustRan\" value=\"0\"/>\n      </properties>\n"
        "      <skipped type=\"skipped\" message=\"every test was skipped\"/>",
        "<property name=\"ranNotCounted\" value=\"1\"/>",
        "<testcase name=\"claim push@postgres\"",
        "<property name=\"exercised\" value=\"false\"/>",
        "<failure type=\"not-exercised\" message=\"claim push@postgres: not exercised "
        "(SSP_PG_DSN is not set)\"/>"}) {
    EXPECT_THAT(xml, HasSubstr(expected));
  }
  EXPECT_THAT(junit_xml(sample_run()), Not(HasSubstr("(what the run exercised)")))
      << "a run judged nothing has no such suite";

  const std::string page = summary_markdown(run);
  for (const char* expected :
       {"## What the run exercised\n\n| area | backend | ran, counted | ran, not counted | "
        "skipped | MUST reach |\n|---|---|---|---|---|---|\n| push | memory | 0 | 0 | 2 | 0/1 |\n"
        "| push | sqlite | 3 | 1 | 0 | 2/2 |\n",
        "Not claimed (skipped for an area the candidate does not declare, judged nowhere): "
        "`scope` 4.\n",
        "Claims: `push@sqlite` exercised (3 ran), `push@postgres` **not exercised**.\n",
        "Not reachable in this run: postgres (SSP\\_PG\\_DSN is not set).\n",  // Markdown: _ escaped
        "## Not exercised (the run is not a pass)\n\n- claim push@postgres"}) {
    EXPECT_THAT(page, HasSubstr(expected));
  }
}

TEST(Reports, REPORT_9_ARunWithAReportDirectoryLeavesTheThreeReports) {
  record_spec("Catalog", "REPORT-9");
  const std::filesystem::path dir = scratch_directory() / "report-9" / "nested";
  std::filesystem::remove_all(dir.parent_path());
  const ChildRun run = run_child(
      SSP_CONFORMANCE, {"--gtest_brief=1", "--profile=spec", "--report-dir", dir.string(),
                        "--gtest_filter=SegmentIdentity.R1_Put*/memory:SegmentIdentity.R7_*/memory"});
  ASSERT_TRUE(run.exited) << run.err;
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto summary = nlohmann::json::parse(read_text_file(dir / "summary.json"));
  EXPECT_EQ(summary["exitStatus"], 0);
  EXPECT_EQ(summary["candidate"], "reference");
  ASSERT_EQ(summary["tests"].size(), 2u);
  EXPECT_EQ(summary["tests"][0]["name"],
            "SegmentIdentity.R1_PutReturnsContentAddressLengthAndTimes/memory");
  EXPECT_EQ(summary["tests"][0]["sections"], nlohmann::json::parse(R"(["\u00a75.1"])"));
  EXPECT_EQ(summary["tests"][1]["outcome"], "skipped");
  EXPECT_THAT(summary["tests"][1]["reason"].get<std::string>(), HasSubstr("no SQL tables"));
  // What the run exercised: the segment store on memory, one test ran.
  EXPECT_EQ(summary["notExercised"], nlohmann::json::array());
  EXPECT_THAT(summary["exercised"].dump(),
              HasSubstr(R"({"area":"segment_store","backend":"memory","mustOwed":1,"mustRan":1,"ran":1,"ranNotCounted":0,"skipped":1})"));
  EXPECT_THAT(read_text_file(dir / "junit.xml"),
              HasSubstr("<skipped type=\"skipped\" message=\"memory backend has no SQL tables"));
  EXPECT_THAT(read_text_file(dir / "summary.md"), HasSubstr("| \u00a75.1 | 1 / 0 / 0 / 1 |"));
}

TEST(Reports, HARNESS_46_AReportDirectoryThatCannotBeWrittenFailsARunThatPassed) {
  record_spec("Harness", "HARNESS-46");
  // A directory under a regular file: no one can create it, root included.
  const std::filesystem::path file = scratch_directory() / "harness-46-a-file";
  std::filesystem::remove_all(file);
  std::ofstream(file) << "not a directory\n";
  const std::filesystem::path dir = file / "reports";
  const ChildRun run = run_child(SSP_CONFORMANCE, {"--gtest_brief=1", "--report-dir", dir.string(),
                                                   "--gtest_filter=SegmentIdentity.R1_Put*/memory"});
  ASSERT_TRUE(run.exited) << run.err;
  EXPECT_THAT(run.out, HasSubstr("1 passed, 0 failed, 0 skipped")) << "the test itself passed";
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_THAT(run.err, HasSubstr("--report-dir: cannot create the report directory " + dir.string()));
  std::filesystem::remove_all(file);
}

TEST(Reports, HARNESS_42_ListPrintsEachSelectedTestWithWhatTheCatalogSaysAndRunsNone) {
  record_spec("Harness", "HARNESS-42");
  std::map<std::string, CatalogTest> catalog = {
      {"S.R1_X", {"R1", "\u00a75.1, \u00a75.5", RequirementLevel::should}}};
  EXPECT_EQ(test_listing({"P/S.R1_X/sqlite", "U.Y"}, catalog, {{"S", "segment_store, hooks"}}),
            "test\tsections\trequirement\tlevel\tcapabilities\n"
            "P/S.R1_X/sqlite\t\u00a75.1, \u00a75.5\tR1\tSHOULD\tsegment_store, hooks\n"
            "U.Y\t(uncataloged)\t(uncataloged)\tMUST\t-\n");
  const ChildRun run = run_child(
      SSP_CONFORMANCE, {"--list", "--backend", "memory", "--gtest_filter=SegmentIdentity.R1_Put*"});
  ASSERT_TRUE(run.exited) << run.err;
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(
      run.out,
      "test\tsections\trequirement\tlevel\tcapabilities\n"
      "SegmentIdentity.R1_PutReturnsContentAddressLengthAndTimes/memory\t\u00a75.1\tR1\tMUST\t"
      "segment_store, injected_hasher\n");
}

TEST(Reports, HARNESS_43_TheProgressLineShowsTestsDoneTheSectionAndFitsTheTerminal) {
  record_spec("Harness", "HARNESS-43");
  EXPECT_EQ(progress_text(7, 120, "\u00a75.1", "S.R1_X/sqlite", 80),
            "[  7/120] \u00a75.1 S.R1_X/sqlite");
  // Cut at the terminal's last column but one, counting "§" as one column.
  EXPECT_EQ(progress_text(7, 120, "\u00a75.1", "S.R1_X/sqlite", 16), "[  7/120] \u00a75.1 ");
  EXPECT_EQ(progress_text(7, 120, "\u00a75.1", "S.R1_X/sqlite", 12), "[  7/120] \u00a7");
}

TEST(Reports, HARNESS_44_AnAskForACapabilityItsSuiteDoesNotDeclareIsAHarnessError) {
  record_spec("Harness", "HARNESS-44");
  ASSERT_FALSE(suite_capabilities().count("Reports"));
  HarnessErrorsExpected expected;
  EXPECT_THROW(require_declared_capability(Capability::push), HarnessError);
  EXPECT_EQ(suite_capability_keys().at("SegmentStoreContract"),
            "segment_store, hooks, injected_hasher, read_only_open");
}

}  // namespace
}  // namespace ssp::harness
