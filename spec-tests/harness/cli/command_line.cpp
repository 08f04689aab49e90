#include "harness/cli/command_line.hpp"

#include <algorithm>
#include <optional>
#include <sstream>

namespace ssp::harness {
namespace {

// A flag that sets an environment variable.
struct VariableFlag {
  const char* flag;
  const char* variable;
};

constexpr VariableFlag kVariableFlags[] = {
    {"--candidate", "SSP_CANDIDATE"},
    {"--pg", "SSP_PG_DSN"},
    {"--profile", "SSP_PROFILE"},
    {"--expect", "SSP_EXPECTATIONS"},
    {"--claim", "SSP_CLAIMS"},
    {"--data-dir", "SSP_DATA_DIR"},
};

std::vector<Backend> backends_listed(const std::string& list) {
  std::vector<Backend> backends;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    const auto backend = backend_called(name);
    if (!backend) {
      throw CommandLineError("--backend: unknown backend \"" + name +
                             "\" (memory, sqlite or postgres, separated by commas)");
    }
    if (std::find(backends.begin(), backends.end(), *backend) == backends.end()) {
      backends.push_back(*backend);
    }
  }
  if (backends.empty()) throw CommandLineError("--backend needs at least one backend");
  return backends;
}

}  // namespace

CommandLine parse_command_line(const std::vector<std::string>& arguments) {
  CommandLine line;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (argument == "--help" || argument == "-h") {
      line.help = true;
      continue;
    }
    if (argument == "--list") {
      line.list = true;
      continue;
    }
    if (argument == "--version") {
      line.version = true;
      continue;
    }
    const auto equals = argument.find('=');
    const std::string flag = argument.substr(0, equals);
    const auto value = [&]() -> std::string {
      if (equals != std::string::npos) return argument.substr(equals + 1);
      if (i + 1 >= arguments.size()) throw CommandLineError(flag + " needs a value");
      return arguments[++i];
    };
    if (flag == "--backend") {
      line.backends = backends_listed(value());
      continue;
    }
    if (flag == "--report-dir") {
      line.report_dir = value();
      if (line.report_dir.empty()) throw CommandLineError("--report-dir needs a directory");
      continue;
    }
    const auto known = std::find_if(std::begin(kVariableFlags), std::end(kVariableFlags),
                                    [&](const VariableFlag& f) { return flag == f.flag; });
    if (known == std::end(kVariableFlags)) {
      throw CommandLineError("unknown argument \"" + argument + "\"");
    }
    line.environment.emplace_back(known->variable, value());
  }
  return line;
}

std::string setting_name(const CommandLine& line, const std::string& variable) {
  const bool from_a_flag = std::any_of(line.environment.begin(), line.environment.end(),
                                       [&](const auto& set) { return set.first == variable; });
  if (!from_a_flag) return variable;
  for (const VariableFlag& known : kVariableFlags) {
    if (known.variable == variable) return known.flag;
  }
  return variable;
}

std::string filter_for_backends(const std::string& filter, const std::vector<Backend>& backends) {
  if (backends.empty()) return filter;
  std::string left_out;
  for (const Backend backend : all_backends()) {
    if (std::find(backends.begin(), backends.end(), backend) != backends.end()) continue;
    left_out +=
        (left_out.empty() ? "" : ":") + std::string("*/") + std::string(backend_name(backend));
  }
  if (left_out.empty()) return filter;
  // GoogleTest's filter is POSITIVE[-NEGATIVE]: the first '-' starts the
  // patterns left out.
  const bool has_negative = filter.find('-') != std::string::npos;
  const std::string positive = filter.empty() ? "*" : filter;
  return positive + (has_negative ? ":" : "-") + left_out;
}

std::string command_line_help(const std::string& program) {
  return "Usage: " + program + R"( [FLAG…] [--gtest_… flags]

Runs the SSP2 conformance tests against a candidate (docs/harness.md).

  --candidate reference|exec:'CMD ARGS'
                       the implementation under test (SSP_CANDIDATE; default the C++
                       reference); exec: runs a driver (docs/driver-protocol.md)
  --backend LIST       only the tests of these backends, comma-separated: memory,
                       sqlite, postgres (default: every backend the candidate has)
  --pg DSN             the PostgreSQL server the postgres tests use (SSP_PG_DSN);
                       without one they are skipped
  --profile spec|0.22|reference
                       which failures count (SSP_PROFILE): spec, the default, fails
                       on a MUST and warns on a SHOULD; 0.22 fails on the 0.22
                       release's rows too (sharing upstream's databases);
                       reference fails on every level, the reference's own
                       decisions included
  --expect FILE        the candidate's expected failures (SSP_EXPECTATIONS)
  --claim LIST         parts the run must exercise, AREA@BACKEND comma-separated
                       (SSP_CLAIMS; areas as --list names them): a claim no
                       counted test ran on makes the run exit 2
  --report-dir DIR     after the run, write DIR/junit.xml (JUnit, for a CI's test
                       view), DIR/summary.md (per section and backend, for a pull
                       request) and DIR/summary.json (docs/harness.md, "Reports");
                       DIR is created when missing
  --data-dir DIR       where the suite's data is (SSP_DATA_DIR): the fixtures,
                       schedules, fault plans and requirements catalog; default
                       the share/ssp-conformance folder nearest the program
                       (PREFIX/share/ssp-conformance when installed)
  --list               print every test the filter selects with its sections,
                       requirement, level and the capabilities its suite may need;
                       run nothing
  --version            print the suite's version, the driver protocol versions it
                       speaks, the SSP2 revision and the requirements catalog it
                       judges by (every report carries them too); run nothing
  --help               this text

On a terminal, the run shows its progress on stderr: tests done out of the
total, and the section of the running test.

GoogleTest's own flags, listed above, work too: --gtest_filter=PATTERN,
--gtest_brief=1, --gtest_output=xml:FILE, … A flag wins over its environment
variable.

Exit status:
  0  every test that counts passed, skipped, or failed as the expectations file
     says, and the run exercised every declared area, backend and claim
  1  a test that counts failed, an expected failure passed, or a failure happened
     outside every test
  2  a test erred (the driver broke the protocol, or a harness error); no test
     that counts ran, or none for a declared area, a backend or a claim; a flag,
     SSP_CANDIDATE, SSP_EXPECTATIONS, SSP_PROFILE or SSP_CLAIMS is not right; the
     suite's data is missing (--data-dir); or a report could not be written
)";
}

}  // namespace ssp::harness
