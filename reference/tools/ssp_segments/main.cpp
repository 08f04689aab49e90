// ssp-segments [--sqlite PATH | --pg DSN [--pg-schema NAME]] [--pretty] COMMAND ...
// Read-only operator commands over a segment store (docs/ssp-segments.md):
// one JSON object on stdout per run, diagnostics on stderr.
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "command.hpp"
#include "operator_message.hpp"

namespace ssp::tools {
namespace {

constexpr const char* kToolName = "ssp-segments";

void print_usage(std::ostream& out) {
  out << "usage: " << kToolName
      << " [--sqlite PATH | --pg DSN [--pg-schema NAME]] [--pretty] COMMAND [ARGS]\n\n"
         "Never changes the database. Prints one JSON object on stdout.\n"
         "Exit: 0 positive answer, 1 negative answer (not found, corrupt),\n"
         "      2 usage, input or database error (message on stderr).\n\ncommands:\n";
  for (const Command& command : commands()) {
    out << "  " << command.name;
    if (!command.synopsis.empty()) out << ' ' << command.synopsis;
    out << "\n      " << command.summary << '\n';
  }
}

// The options before the command, and where the command starts.
struct GlobalOptions {
  DatabaseTarget target;
  bool pretty = false;
  bool help = false;
  std::size_t command_index = 0;
};

GlobalOptions parse_global_options(const std::vector<std::string>& args) {
  GlobalOptions options;
  std::optional<std::string> schema;
  std::size_t i = 0;
  const auto value_of = [&](const std::string& option) {
    if (i + 1 >= args.size()) throw UsageError("option " + option + " needs a value");
    return args[++i];
  };
  const auto set_database = [&](DatabaseTarget::Kind kind) {
    if (options.target.kind != DatabaseTarget::Kind::none) {
      throw UsageError("option " + args[i] + ": give exactly one of --sqlite and --pg");
    }
    options.target.kind = kind;
  };
  for (; i < args.size() && args[i].starts_with("-"); ++i) {
    const std::string& option = args[i];
    if (option == "--sqlite") {
      set_database(DatabaseTarget::Kind::sqlite);
      options.target.sqlite_path = value_of(option);
    } else if (option == "--pg") {
      set_database(DatabaseTarget::Kind::postgres);
      options.target.pg_dsn = value_of(option);
    } else if (option == "--pg-schema") {
      if (schema) throw UsageError("option --pg-schema is given twice");
      schema = value_of(option);
    } else if (option == "--pretty") {
      options.pretty = true;
    } else if (option == "--help" || option == "-h") {
      options.help = true;
    } else {
      throw UsageError("unknown option " + option + " before the command");
    }
  }
  if (schema) {
    if (options.target.kind != DatabaseTarget::Kind::postgres) {
      throw UsageError("option --pg-schema needs --pg");
    }
    options.target.pg_schema = *schema;
  }
  options.command_index = i;
  return options;
}

const Command& find_command_named(const std::string& name) {
  for (const Command& command : commands()) {
    if (command.name == name) return command;
  }
  throw UsageError("unknown command " + name);
}

int run(const std::vector<std::string>& args) {
  const GlobalOptions options = parse_global_options(args);
  if (options.help) {
    print_usage(std::cout);
    return kExitOk;
  }
  if (options.command_index == args.size()) throw UsageError("missing COMMAND");
  const Command& command = find_command_named(args[options.command_index]);
  Arguments arguments(command.name, std::vector<std::string>(
                                        args.begin() + options.command_index + 1, args.end()));
  ToolContext context(options.target, options.pretty, std::cout);
  return command.run(context, arguments);
}

// One line on stderr: the first line of the message (operator_message.hpp).
int fail(const std::string& message) {
  std::cerr << kToolName << ": " << operator_message(message) << '\n';
  return kExitFailure;
}

}  // namespace
}  // namespace ssp::tools

int main(int argc, char** argv) {
  using namespace ssp::tools;
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const UsageError& error) {
    fail(error.what());
    std::cerr << "run '" << kToolName << " --help' for usage\n";
    return kExitFailure;
  } catch (const std::exception& error) {
    // SspError (storage, bad key) and anything else, e.g. a failed write.
    return fail(error.what());
  }
}
