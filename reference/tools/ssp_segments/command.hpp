// How ssp-segments dispatches: a table of commands, each in its own source
// file (command_<name>.cpp). Adding a command = one file, one declaration
// below and one row in commands.cpp.
#pragma once

#include <span>
#include <string_view>

#include "arguments.hpp"
#include "tool_context.hpp"

namespace ssp::tools {

// Exit statuses shared by every command (docs/ssp-segments.md).
enum ExitStatus : int {
  kExitOk = 0,        // the answer is positive (found, clean)
  kExitNegative = 1,  // a valid negative answer (not found, corrupt)
  kExitFailure = 2,   // usage error, bad input, I/O or connection failure
};

struct Command {
  std::string_view name;
  std::string_view synopsis;  // arguments after the name, for --help
  std::string_view summary;   // one line, for --help
  // Prints one JSON object through context.print and returns the exit status.
  // Throws UsageError for bad arguments; errors from the store propagate.
  int (*run)(ToolContext& context, Arguments& arguments);
};

// Every command, in --help order.
std::span<const Command> commands();

// One per command_<name>.cpp.
Command stats_command();
Command get_command();
Command find_command();
Command verify_command();
Command scope_digest_command();
Command authorize_command();

}  // namespace ssp::tools
