#include "storage_tool.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "commit_log_commands.hpp"
#include "operator_message.hpp"
#include "sqlite_path.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/postgres/postgres_server_storage.hpp"
#include "ssp/sqlite/sqlite_server_storage.hpp"
#include "ssp/storage/schema_compile.hpp"
#include "ssp/storage/storage_errors.hpp"
#include "wire/schema_json.hpp"

namespace ssp::tools {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kUsage =
    "usage: ssp-storage check   --schema FILE (--sqlite PATH | --pg DSN [--pg-schema NAME])\n"
    "       ssp-storage migrate --schema FILE (--sqlite PATH | --pg DSN [--pg-schema NAME])\n"
    "       ssp-storage log     --partition P [--after SEQ] [--limit N] (--sqlite PATH | --pg DSN [--pg-schema NAME])\n"
    "       ssp-storage verify  [--partition P] (--sqlite PATH | --pg DSN [--pg-schema NAME])\n"
    "       ssp-storage --help\n"
    "check: can this database be served by this schema, and why not (changes nothing)\n"
    "migrate: bring the database to the schema (the same checks, then commit)\n"
    "exit: 0 servable, 1 refused, 2 usage or I/O error; one JSON object on stdout\n"
    "log: the partition's commits after SEQ (default 0), at most N (default 100), oldest\n"
    "     first, one JSON object per line (read-only)\n"
    "verify: dense commit seqs, one commit per idempotency key, row version chains\n"
    "     (read-only); exit 0 and \"ok …\", 1 and the first violation, 2 usage or I/O error\n";

struct Arguments {
  std::string command;
  std::string schema_file;
  std::optional<std::string> sqlite_path;
  std::optional<std::string> pg_dsn;
  std::string pg_schema = "public";
  // log and verify.
  std::optional<std::string> partition;
  std::int64_t after_seq = 0;
  std::int64_t limit = 100;
};

// A problem that ends the run with exit 2, reported as {"error": kind, …}.
struct ToolError {
  std::string kind;  // "usage" | "schema" | "io"
  std::string message;
};

// A decimal option value of at least `minimum`.
std::int64_t whole_number(const std::string& text, const std::string& flag, std::int64_t minimum) {
  std::int64_t value = 0;
  bool digits = !text.empty() && text.size() <= 18;
  for (char c : text) {
    if (c < '0' || c > '9') digits = false;
    if (digits) value = value * 10 + (c - '0');
  }
  if (!digits || value < minimum) {
    throw ToolError{"usage", flag + " needs a whole number of at least " + std::to_string(minimum) +
                                 ", not \"" + text + "\""};
  }
  return value;
}

Arguments parse_arguments(const std::vector<std::string>& args) {
  if (args.empty()) throw ToolError{"usage", "no command"};
  Arguments parsed;
  parsed.command = args[0];
  const bool schema_command = parsed.command == "check" || parsed.command == "migrate";
  const bool log_command = parsed.command == "log";
  if (!schema_command && !log_command && parsed.command != "verify") {
    throw ToolError{"usage", "unknown command \"" + parsed.command + "\""};
  }
  bool pg_schema_given = false;
  std::optional<std::string> after_text;
  std::optional<std::string> limit_text;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& flag = args[i];
    // The flag is known before its value is looked for, so a misspelled last
    // option is reported as unknown, not as missing its value.
    std::string* value = nullptr;
    if (flag == "--schema" && schema_command) {
      value = &parsed.schema_file;
    } else if (flag == "--partition" && !schema_command) {
      value = &parsed.partition.emplace();
    } else if (flag == "--after" && log_command) {
      value = &after_text.emplace();
    } else if (flag == "--limit" && log_command) {
      value = &limit_text.emplace();
    } else if (flag == "--sqlite") {
      value = &parsed.sqlite_path.emplace();
    } else if (flag == "--pg") {
      value = &parsed.pg_dsn.emplace();
    } else if (flag == "--pg-schema") {
      value = &parsed.pg_schema;
      pg_schema_given = true;
    } else {
      throw ToolError{"usage", "unknown option " + flag + " for " + parsed.command};
    }
    if (i + 1 >= args.size()) throw ToolError{"usage", flag + " needs a value"};
    *value = args[++i];
  }
  if (schema_command && parsed.schema_file.empty()) {
    throw ToolError{"usage", "--schema FILE is required"};
  }
  if (log_command && !parsed.partition) throw ToolError{"usage", "--partition P is required"};
  if (after_text) parsed.after_seq = whole_number(*after_text, "--after", 0);
  if (limit_text) parsed.limit = whole_number(*limit_text, "--limit", 1);
  if (parsed.sqlite_path.has_value() == parsed.pg_dsn.has_value()) {
    throw ToolError{"usage", "give exactly one of --sqlite PATH and --pg DSN"};
  }
  if (pg_schema_given && !parsed.pg_dsn) throw ToolError{"usage", "--pg-schema needs --pg"};
  return parsed;
}

storage::CompiledSchema load_schema(const std::string& path) {
  if (std::filesystem::is_directory(path)) {
    throw ToolError{"io", "schema file " + path + " is a directory"};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ToolError{"io", "cannot read schema file " + path};
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return storage::compile_schema(storage::parse_schema_json(text.str()));
  } catch (const storage::SchemaError& error) {
    throw ToolError{"schema", path + ": " + error.what()};
  }
}

std::unique_ptr<storage::ServerStorage> open_storage(const Arguments& arguments) {
  if (arguments.sqlite_path) {
    if (const auto problem = sqlite_path_problem(*arguments.sqlite_path)) {
      throw ToolError{"io", *problem};
    }
    return storage::open_sqlite_server_storage(*arguments.sqlite_path);
  }
  return storage::open_postgres_server_storage(*arguments.pg_dsn, arguments.pg_schema);
}

const char* action_name(storage::SchemaReport::Action action, bool preview) {
  switch (action) {
    case storage::SchemaReport::Action::memoized:
    case storage::SchemaReport::Action::verified:
      return "verified";
    case storage::SchemaReport::Action::migrated:
      return preview ? "migrate" : "migrated";
    case storage::SchemaReport::Action::unreported:
      break;  // the reference always reports
  }
  return "unknown";
}

Json report_json(const Arguments& arguments, const storage::SchemaReport& report) {
  const bool preview = arguments.command == "check";
  Json out;
  out["command"] = arguments.command;
  out["servable"] = true;
  out["action"] = action_name(report.action, preview);
  out["configuredVersion"] = report.configured_version;
  out["storedVersion"] = report.stored_version ? Json(*report.stored_version) : Json(nullptr);
  out["retiredTables"] = report.retired_tables;
  out["statements"] = report.statements;
  out["rewrittenRows"] = report.rewritten_rows;
  return out;
}

Json refusal_json(const Arguments& arguments, const storage::CompiledSchema& schema,
                  const storage::SchemaRefusal& refusal) {
  Json out;
  out["command"] = arguments.command;
  out["servable"] = false;
  out["reason"] = std::string(storage::refusal_reason_name(refusal.reason()));
  out["message"] = refusal.what();
  out["table"] = refusal.table() ? Json(*refusal.table()) : Json(nullptr);
  out["column"] = refusal.column() ? Json(*refusal.column()) : Json(nullptr);
  out["configuredVersion"] = schema.version;
  return out;
}

void write(std::ostream& out, const Json& value) {
  out << value.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
}

std::unique_ptr<ReadOnlyDatabase> open_read_only(const Arguments& arguments) {
  if (arguments.sqlite_path) {
    if (const auto problem = sqlite_path_problem(*arguments.sqlite_path)) {
      throw ToolError{"io", *problem};
    }
    return open_read_only_sqlite(*arguments.sqlite_path);
  }
  return open_read_only_postgres(*arguments.pg_dsn, arguments.pg_schema);
}

// log and verify: read-only, their own output (docs/ssp-storage.md).
int run_inspection(const Arguments& arguments, std::ostream& out) {
  const auto database = open_read_only(arguments);
  if (arguments.command == "log") {
    // Buffered: an error halfway prints the error object alone.
    std::ostringstream lines;
    print_commit_log(*database, *arguments.partition, arguments.after_seq, arguments.limit, lines);
    out << lines.str();
    return kServable;
  }
  const VerifyReport report = verify_commit_log(*database, arguments.partition);
  if (report.violation) {
    out << "violation " << *report.violation << '\n';
    return kRefused;
  }
  out << "ok " << report.summary << '\n';
  return kServable;
}

bool asks_for_help(const std::vector<std::string>& args) {
  return !args.empty() && (args[0] == "--help" || args[0] == "-h");
}

}  // namespace

int run_storage_tool(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (asks_for_help(args)) {
    out << kUsage;
    return kServable;
  }
  Json error;
  error["command"] = args.empty() ? "" : args[0];
  try {
    const Arguments arguments = parse_arguments(args);
    if (arguments.command == "log" || arguments.command == "verify") {
      return run_inspection(arguments, out);
    }
    const storage::CompiledSchema schema = load_schema(arguments.schema_file);
    const auto storage = open_storage(arguments);
    try {
      const storage::SchemaReport report = arguments.command == "check"
                                               ? storage->preview_schema(schema)
                                               : storage->ensure_schema(schema);
      write(out, report_json(arguments, report));
      return kServable;
    } catch (const storage::SchemaRefusal& refusal) {
      write(out, refusal_json(arguments, schema, refusal));
      return kRefused;
    }
  } catch (const ToolError& problem) {
    error["error"] = problem.kind;
    error["message"] = problem.message;
    if (problem.kind == "usage") err << kUsage;
  } catch (const SspError& failure) {
    error["error"] = "io";
    error["message"] = operator_message(failure.what());
  }
  write(out, error);
  return kUsageOrIoError;
}

}  // namespace ssp::tools
