// The command line of the suites (command_line.hpp, docs/harness.md "Command
// line"): flags parse in both forms and stand for their variables, a wrong
// one is named and ends the run with status 2 before any test, --help
// documents the flags and exit statuses, and --backend keeps the tests of
// the backends named.
#include "harness/cli/command_line.hpp"

#include <gmock/gmock.h>

#include "harness/catalog/spec.hpp"
#include "harness/util/child_process.hpp"

namespace ssp::harness {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Pair;

std::string command_line_refusal(const std::vector<std::string>& arguments) {
  try {
    parse_command_line(arguments);
  } catch (const CommandLineError& wrong) {
    return wrong.what();
  }
  return "(accepted)";
}

TEST(CommandLine, HARNESS_40_FlagsStandForTheirVariablesAndAWrongOneIsNamed) {
  record_spec("Harness", "HARNESS-40");
  const CommandLine line = parse_command_line(
      {"--candidate", "exec:python3 driver.py", "--pg=host=db port=5", "--profile", "reference",
       "--expect=expected.json", "--backend", "sqlite,postgres,sqlite"});
  EXPECT_FALSE(line.help);
  EXPECT_THAT(line.environment,
              ElementsAre(Pair("SSP_CANDIDATE", "exec:python3 driver.py"),
                          Pair("SSP_PG_DSN", "host=db port=5"), Pair("SSP_PROFILE", "reference"),
                          Pair("SSP_EXPECTATIONS", "expected.json")));
  EXPECT_THAT(line.backends, ElementsAre(Backend::sqlite, Backend::postgres));
  EXPECT_TRUE(parse_command_line({"--help"}).help);
  EXPECT_THAT(parse_command_line({}).environment, IsEmpty());

  EXPECT_EQ(command_line_refusal({"--candiate", "reference"}), "unknown argument \"--candiate\"");
  EXPECT_EQ(command_line_refusal({"extra"}), "unknown argument \"extra\"");
  EXPECT_EQ(command_line_refusal({"--profile"}), "--profile needs a value");
  EXPECT_THAT(command_line_refusal({"--backend", "sqlite,mysql"}), HasSubstr("unknown backend \"mysql\""));
  EXPECT_EQ(command_line_refusal({"--backend="}), "--backend needs at least one backend");

  // --backend narrows GoogleTest's filter; tests of no backend stay.
  EXPECT_EQ(filter_for_backends("", {}), "");
  EXPECT_EQ(filter_for_backends("", {Backend::sqlite}), "*-*/memory:*/postgres");
  EXPECT_EQ(filter_for_backends("Seg*", {Backend::memory, Backend::postgres}), "Seg*-*/sqlite");
  EXPECT_EQ(filter_for_backends("A.*-A.B", {Backend::postgres}), "A.*-A.B:*/memory:*/sqlite");
  EXPECT_EQ(filter_for_backends("A.*", all_backends()), "A.*");
}

TEST(CommandLine, HARNESS_41_TheSuiteTakesItsFlagsFromTheCommandLine) {
  record_spec("Harness", "HARNESS-41");
  const ChildRun wrong = run_child(SSP_CONFORMANCE, {"--gtest_brief=1", "--candidat=reference"});
  ASSERT_TRUE(wrong.exited) << wrong.err;
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_THAT(wrong.err, HasSubstr("unknown argument \"--candidat=reference\" (see --help)"));
  EXPECT_THAT(wrong.out, Not(HasSubstr("[ RUN")));

  const ChildRun help = run_child(SSP_CONFORMANCE, {"--help"});
  ASSERT_TRUE(help.exited) << help.err;
  EXPECT_EQ(help.exit_code, 0);
  for (const char* documented : {"--candidate", "--backend", "--pg", "--profile", "--expect",
                                 "--gtest_filter", "Exit status:"}) {
    EXPECT_THAT(help.out, HasSubstr(documented));
  }

  // The flag reaches the candidate selection: a candidate the suite does not
  // know ends the run with status 2, as SSP_CANDIDATE would.
  const ChildRun unknown_candidate = run_child(
      SSP_CONFORMANCE, {"--gtest_brief=1", "--candidate", "nonsense", "--gtest_filter=Nothing.*"});
  ASSERT_TRUE(unknown_candidate.exited) << unknown_candidate.err;
  EXPECT_EQ(unknown_candidate.exit_code, 2) << unknown_candidate.out << unknown_candidate.err;

  // --backend memory runs a suite's memory instance and no other.
  const ChildRun memory_only =
      run_child(SSP_CONFORMANCE, {"--gtest_brief=0", "--backend", "memory",
                                  "--gtest_filter=SegmentIdentity.R1_Put*", "--gtest_list_tests"});
  ASSERT_TRUE(memory_only.exited) << memory_only.err;
  EXPECT_EQ(memory_only.exit_code, 0) << memory_only.err;
  EXPECT_THAT(memory_only.out, HasSubstr("/memory"));
  EXPECT_THAT(memory_only.out, Not(HasSubstr("/sqlite")));
  EXPECT_THAT(memory_only.out, Not(HasSubstr("/postgres")));
}

}  // namespace
}  // namespace ssp::harness
