// Edge JSON (fixtures/cases/edge_json/edge_json.json) on the driver wire, in
// both directions: ssp-reference-driver reading such a request line (EJ-10)
// and the harness reading such an answer from a fake driver (HARNESS-32).
// Neither end may crash or pass the JSON library's exception text on.
#include <gmock/gmock.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "conformance_run.hpp"
#include "harness/catalog/spec.hpp"
#include "harness/fixtures/edge_json_cases.hpp"
#include "harness/util/child_process.hpp"
#include "harness/util/scratch_directory.hpp"

namespace ssp::driver_tests {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A file of this test's own in the scratch directory, removed at the end.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& name) {
    std::random_device random;
    path_ = harness::scratch_directory() /
            ("ssp-edge-json-" + std::to_string(random()) + "-" + name);
  }
  ~ScratchFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  void write(const std::string& bytes) const {
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << bytes;
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// The answers on `out` (one JSON object a line), by id.
std::map<std::string, nlohmann::json> answers_by_id(const std::string& out) {
  std::map<std::string, nlohmann::json> answers;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    const auto answer = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (answer.is_object() && answer.contains("id")) answers[answer["id"].dump()] = answer;
  }
  return answers;
}

TEST(EdgeJsonWire, EJ_10_TheReferenceDriverSkipsOrRefusesEdgeJsonAndServesOn) {
  harness::record_spec("Driver", "EJ-10");
  const std::string site = harness::edge_json_site("driver_request");
  const std::string hello = R"({"id":2,"method":"hello","params":{"protocol":1}})";
  const ScratchFile input("requests");
  for (const harness::EdgeJsonCase& c : harness::edge_json_cases()) {
    SCOPED_TRACE(c.name());
    const auto line = c.document("driver_request", site);
    if (!line) continue;
    ASSERT_FALSE(c.accepted_at("driver_request")) << "protocol is an integer: nothing else is read";
    // The edge line (id 1), then an ordinary hello (id 2), then end of input.
    input.write(*line + "\n" + hello + "\n");
    const harness::ChildRun run = harness::run_child(
        "/bin/sh", {"-c", "exec \"$0\" < \"$1\"", SSP_REFERENCE_DRIVER, input.path()});
    ASSERT_TRUE(run.exited) << "signal " << run.signal << "\n" << run.err;
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_THAT(run.err, Not(HasSubstr("[json.exception")));
    const auto answers = answers_by_id(run.out);
    ASSERT_TRUE(answers.contains("2")) << "the next request is served: " << run.out;
    EXPECT_TRUE(answers.at("2").contains("result")) << answers.at("2").dump();
    if (answers.contains("1")) {
      // Read, then refused for its shape: an error answer.
      const nlohmann::json& error = answers.at("1")["error"];
      EXPECT_EQ(error.value("code", ""), "ssp.bad_request") << answers.at("1").dump();
      EXPECT_THAT(error.value("message", ""), Not(HasSubstr("[json.exception")));
    } else {
      // Not JSON: nothing to answer (no id can be read), so it is logged.
      EXPECT_THAT(run.err, HasSubstr("not a JSON line: "));
    }
  }
}

TEST(FakeDrivers, HARNESS_32_EdgeJsonFromADriverIsADriverErrorNamingTheMethod) {
  harness::record_spec("Driver", "HARNESS-32");
  const std::string site = harness::edge_json_site("driver_answer");
  const std::string prefix = R"({"id":@ID@)";
  const ScratchFile rest("answer");
  for (const harness::EdgeJsonCase& c : harness::edge_json_cases()) {
    SCOPED_TRACE(c.name());
    const auto line = c.document("driver_answer", site, {{"id", "@ID@"}});
    if (!line) continue;
    ASSERT_FALSE(c.accepted_at("driver_answer")) << "a handle is an integer: nothing else is read";
    ASSERT_TRUE(line->starts_with(prefix)) << *line;
    rest.write(line->substr(prefix.size()));
    const ConformanceRun run = run_conformance(fake_candidate("edge-json"),
                                               "SegmentIdentity.R1_Put*/memory",
                                               {"FAKE_EDGE_JSON_REST=" + rest.path()});
    // Every test errs (exit 2), none passes, and the report names the method.
    EXPECT_EQ(run.exit_code, 2) << run.output.substr(0, 4000);
    for (const auto& [test, outcome] : run.results) {
      EXPECT_EQ(outcome, Outcome::errored) << test;
    }
    EXPECT_THAT(run.output, HasSubstr("driver error: segments.open: "));
    EXPECT_THAT(run.output, Not(HasSubstr("[json.exception")));
  }
}

}  // namespace
}  // namespace ssp::driver_tests
