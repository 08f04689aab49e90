// Runs a built program of the project (a tool, the conformance suite itself)
// as a child process and captures what it did.
#pragma once

#include <string>
#include <vector>

namespace ssp::harness {

struct ChildRun {
  bool exited = false;  // ended by exiting, not by a signal
  int exit_code = -1;   // when exited
  int signal = 0;       // the signal that ended it, when not exited
  std::string out;
  std::string err;
};

// Runs `program` with `args` (no shell), with `environment` ("NAME=value",
// replacing a variable of the same name) on top of this process's
// environment. Stdout and stderr are captured through files, so neither pipe
// can block the other. Throws std::runtime_error when it cannot start.
ChildRun run_child(const std::string& program, const std::vector<std::string>& args,
                   const std::vector<std::string>& environment = {});

}  // namespace ssp::harness
