#include "conformance_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>

#include "harness/util/child_process.hpp"
#include "harness/util/file_text.hpp"
#include "harness/util/scratch_directory.hpp"

namespace ssp::driver_tests {
std::string fake_candidate(const std::string& name) {
  return "exec:'" + std::string(SSP_FAKES_DIR) + "/" + name + ".sh'";
}

ConformanceRun run_conformance(const std::string& candidate, const std::string& filter,
                               const std::vector<std::string>& extra_env) {
  return run_suite(SSP_CONFORMANCE_BINARY, candidate, filter, extra_env);
}

ConformanceRun run_faults(const std::string& candidate, const std::string& filter,
                          const std::vector<std::string>& extra_env) {
  return run_suite(SSP_FAULTS_BINARY, candidate, filter, extra_env);
}

ConformanceRun run_suite(const std::string& binary, const std::string& candidate,
                         const std::string& filter, const std::vector<std::string>& extra_env) {
  static std::atomic<int> counter = 0;
  const std::filesystem::path directory =
      harness::scratch_directory() /
      ("ssp-driver-tests-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(directory);
  const std::string json_path = (directory / "results.json").string();

  // The run sets the candidate, and clears the driver settings that
  // `extra_env` does not set: an inherited deadline, ceiling, reuse or trace
  // setting must not change what a test expects.
  std::vector<std::string> env = {"SSP_CANDIDATE=" + candidate};
  for (const char* setting : {"SSP_DRIVER_TIMEOUT_MS=", "SSP_DRIVER_CALL_CEILING_MS=",
                              "SSP_DRIVER_REUSE=", "SSP_DRIVER_TRACE="}) {
    if (std::none_of(extra_env.begin(), extra_env.end(), [&](const std::string& entry) {
          return entry.starts_with(setting);
        })) {
      env.push_back(setting);
    }
  }
  env.insert(env.end(), extra_env.begin(), extra_env.end());

  ConformanceRun run;
  try {
    const harness::ChildRun child = harness::run_child(
        binary,
        {"--gtest_brief=1", "--gtest_filter=" + filter, "--gtest_output=json:" + json_path}, env);
    if (child.exited) run.exit_code = child.exit_code;
    run.output = child.out + child.err;
  } catch (const std::exception& error) {
    run.output = "cannot start " + binary + ": " + error.what();
  }
  const std::string json = harness::file_text_or_empty(json_path);
  if (!json.empty()) run.results = parse_run_results(json);
  std::error_code ignored;
  std::filesystem::remove_all(directory, ignored);
  return run;
}

}  // namespace ssp::driver_tests
