// The flags of the suites beyond GoogleTest's own (docs/harness.md, "Command
// line"). --candidate, --pg, --profile, --expect, --claim and --data-dir
// stand for environment variables the harness reads, and win over them; the
// environment keeps working on its own. --backend narrows the filter,
// --report-dir asks for the reports (report_files.hpp), --list lists and
// --version prints the suite's identity instead of running. Parsing is pure:
// main() applies what it returns.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness/candidate/backend.hpp"

namespace ssp::harness {

// An argument the suites do not know, or a flag without its value; what()
// names it.
class CommandLineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CommandLine {
  bool help = false;
  bool list = false;       // --list: print the tests the filter selects, run none
  bool version = false;    // --version: print what suite_version_text says, run none
  std::string report_dir;  // --report-dir: where the reports go; "" writes none
  // The variables the flags set, in the order given: SSP_CANDIDATE
  // (--candidate), SSP_PG_DSN (--pg), SSP_PROFILE (--profile),
  // SSP_EXPECTATIONS (--expect), SSP_CLAIMS (--claim), SSP_DATA_DIR
  // (--data-dir).
  std::vector<std::pair<std::string, std::string>> environment;
  // --backend: run only these backends' tests; empty runs every backend.
  std::vector<Backend> backends;
};

// Parses what InitGoogleTest left of the arguments, the program name
// excluded: `--flag VALUE` or `--flag=VALUE`. Values are checked where they
// are used (a candidate, profile or expectations file), except --backend's
// names, checked here. Throws CommandLineError at the first argument that is
// wrong.
CommandLine parse_command_line(const std::vector<std::string>& arguments);

// How the user named the setting behind `variable` (SSP_EXPECTATIONS …): its
// flag ("--expect") when `line` gave it, else the variable itself. Messages
// about a setting name it so.
std::string setting_name(const CommandLine& line, const std::string& variable);

// `filter` (GoogleTest's --gtest_filter) narrowed to the tests of `backends`:
// a test parameterized by another backend (a name ending "/memory",
// "/sqlite" or "/postgres") is left out; a test of no backend stays.
// `backends` empty: `filter` unchanged.
std::string filter_for_backends(const std::string& filter, const std::vector<Backend>& backends);

// What --help prints after GoogleTest's own help (InitGoogleTest prints that
// and leaves --help in place): the flags, the variables behind them, the
// exit statuses.
std::string command_line_help(const std::string& program);

}  // namespace ssp::harness
