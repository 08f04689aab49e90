#include "conformance_run.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace ssp::driver_tests {
namespace {

std::string text_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The current environment without the variables a run sets itself.
std::vector<std::string> environment_for(const std::vector<std::string>& extra) {
  std::vector<std::string> entries;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    if (!text.starts_with("SSP_CANDIDATE=") && !text.starts_with("SSP_DRIVER_TIMEOUT_MS=")) {
      entries.emplace_back(text);
    }
  }
  entries.insert(entries.end(), extra.begin(), extra.end());
  return entries;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& text : strings) out.push_back(text.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

std::string fake_candidate(const std::string& name) {
  return "exec:'" + std::string(SSP_FAKES_DIR) + "/" + name + ".sh'";
}

ConformanceRun run_conformance(const std::string& candidate, const std::string& filter,
                               const std::vector<std::string>& extra_env) {
  static std::atomic<int> counter = 0;
  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() /
      ("ssp-driver-tests-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(directory);
  const std::string output_path = (directory / "output").string();
  const std::string json_path = (directory / "results.json").string();

  std::vector<std::string> args = {SSP_CONFORMANCE_BINARY, "--gtest_brief=1",
                                   "--gtest_filter=" + filter, "--gtest_output=json:" + json_path};
  std::vector<std::string> env = environment_for(extra_env);
  env.push_back("SSP_CANDIDATE=" + candidate);
  std::vector<char*> argv = pointers(args);
  std::vector<char*> envp = pointers(env);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);

  ConformanceRun run;
  int status = 0;
  if (spawned == 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status)) {
    run.exit_code = WEXITSTATUS(status);
  }
  run.output = text_of(output_path);
  if (spawned != 0) run.output += "\ncannot start " + args[0];
  const std::string json = text_of(json_path);
  if (!json.empty()) run.results = parse_run_results(json);
  std::error_code ignored;
  std::filesystem::remove_all(directory, ignored);
  return run;
}

}  // namespace ssp::driver_tests
