// Test code never sees the reference's rules (docs/requirements/harness.md
// TRACE-9): the check of test_code_includes.hpp over this build's compile
// commands, and the same check on planted ones, so that it is known to find
// what it should. The CTest entry rule-call-fails-to-build shows the other
// half: a test that calls a rule does not compile.
#include "harness/catalog/test_code_includes.hpp"

#include <gmock/gmock.h>

#include <set>

#include "harness/catalog/spec.hpp"
#include "harness/util/file_text.hpp"

namespace ssp::harness {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Not;

TEST(ReferenceIndependence, TRACE_9_TestCodeIsCompiledWithoutTheReferenceHeaders) {
  record_spec("Catalog", "TRACE-9");
  const auto commands = nlohmann::json::parse(read_text_file(SSP_COMPILE_COMMANDS));
  std::set<std::string> targets;
  for (const auto& entry : commands) targets.insert(target_of_compile_command(entry));
  // The check reads every test target, and it sees the reference's headers
  // where they are: on the in-process reference candidate's include path.
  for (const std::string& target : test_code_targets()) EXPECT_THAT(targets, Contains(target));
  EXPECT_THAT(reference_headers_in_test_code(commands, SSP_SOURCE_DIR, {"ssp_reference_candidate"}),
              Not(IsEmpty()));
  EXPECT_THAT(reference_headers_in_test_code(commands, SSP_SOURCE_DIR, test_code_targets()),
              IsEmpty());
}

TEST(ReferenceIndependence, TRACE_9_TheCheckFindsAReferenceIncludeDirectory) {
  record_spec("Catalog", "TRACE-9");
  const auto commands = nlohmann::json::parse(R"([
    {"file": "/src/spec-tests/a_test.cpp", "output": "spec-tests/CMakeFiles/ssp-conformance.dir/a_test.cpp.o",
     "command": "c++ -I/src/spec-tests -I/src/vocabulary/include -I/src/reference/include -c a_test.cpp"},
    {"file": "/src/spec-tests/b_test.cpp", "output": "spec-tests/CMakeFiles/ssp-faults.dir/b_test.cpp.o",
     "arguments": ["c++", "-isystem", "/src/reference/src/core", "-iquote/src/reference/includes", "-c", "b_test.cpp"]},
    {"file": "/src/spec-tests/c.cpp",
     "command": "c++ -I/src/reference/include -o spec-tests/CMakeFiles/ssp_reference_candidate.dir/c.cpp.o -c c.cpp"},
    {"file": "/src/x.cpp", "command": "c++ -I/src/reference/include -c x.cpp"}
  ])");
  EXPECT_EQ(target_of_compile_command(commands[0]), "ssp-conformance");
  EXPECT_EQ(target_of_compile_command(commands[2]), "ssp_reference_candidate");
  EXPECT_EQ(target_of_compile_command(commands[3]), "");
  EXPECT_THAT(include_directories_of(commands[1]),
              ElementsAre("/src/reference/src/core", "/src/reference/includes"));
  // A joined -I and a separate -isystem are found; a folder that only starts
  // with the same letters (reference/includes) is not the reference's, and
  // neither target outside the list nor an entry of no target is read.
  EXPECT_THAT(reference_headers_in_test_code(commands, "/src", {"ssp-conformance", "ssp-faults"}),
              ElementsAre("ssp-conformance: /src/spec-tests/a_test.cpp is compiled with "
                          "/src/reference/include",
                          "ssp-faults: /src/spec-tests/b_test.cpp is compiled with "
                          "/src/reference/src/core"));
}

}  // namespace
}  // namespace ssp::harness
