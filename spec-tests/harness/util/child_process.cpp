#include "harness/util/child_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <iterator>
#include <stdexcept>

#include "harness/util/file_text.hpp"
#include "harness/util/scratch_directory.hpp"

extern char** environ;

namespace ssp::harness {
namespace {

std::string name_of(const std::string& assignment) {
  return assignment.substr(0, assignment.find('='));
}

// This process's environment with `overrides` replacing same-named variables.
std::vector<std::string> merged_environment(const std::vector<std::string>& overrides) {
  std::vector<std::string> merged;
  for (char** variable = environ; *variable != nullptr; ++variable) {
    const std::string assignment = *variable;
    bool overridden = false;
    for (const auto& override : overrides) overridden |= name_of(override) == name_of(assignment);
    if (!overridden) merged.push_back(assignment);
  }
  merged.insert(merged.end(), overrides.begin(), overrides.end());
  return merged;
}

std::vector<char*> pointers_to(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (auto& text : strings) pointers.push_back(text.data());
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

ChildRun run_child(const std::string& program, const std::vector<std::string>& args,
                   const std::vector<std::string>& environment) {
  static std::atomic<int> counter = 0;
  const std::filesystem::path directory =
      scratch_directory() /
      ("ssp-child-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(directory);
  const std::string out_path = (directory / "stdout").string();
  const std::string err_path = (directory / "stderr").string();

  std::vector<std::string> argv_strings{program};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<std::string> env_strings = merged_environment(environment);
  std::vector<char*> argv = pointers_to(argv_strings);
  std::vector<char*> envp = pointers_to(env_strings);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    std::filesystem::remove_all(directory);
    throw std::runtime_error("cannot start " + program + ": error " + std::to_string(spawned));
  }

  ChildRun run;
  int status = 0;
  if (waitpid(pid, &status, 0) == pid) {
    run.exited = WIFEXITED(status);
    if (run.exited) run.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
  }
  run.out = file_text_or_empty(out_path);
  run.err = file_text_or_empty(err_path);
  std::error_code ignored;
  std::filesystem::remove_all(directory, ignored);
  return run;
}

}  // namespace ssp::harness
