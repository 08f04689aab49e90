#include "harness/driver/driver_hello.hpp"

#include "harness/errors/driver_error.hpp"
#include "wire/error_codes.hpp"

namespace ssp::harness {
namespace {

std::set<std::string> texts(const wire::Fields& fields, std::string_view name) {
  std::set<std::string> out;
  const wire::Json& list = fields.array(name);
  for (std::size_t i = 0; i < list.size(); ++i) {
    out.insert(wire::text_value(list[i], fields.path_of(name) + "[" + std::to_string(i) + "]"));
  }
  return out;
}

// A capability added after version 1: optional, false when absent.
bool optional_flag(const wire::Fields& capabilities, std::string_view name) {
  return capabilities.has(name) && capabilities.boolean(name);
}

DriverHello read_hello(const wire::Json& answer, std::int64_t asked) {
  try {
    const wire::Fields result(answer, "result");
    const std::int64_t protocol = result.integer("protocol");
    if (protocol != asked) {
      throw DriverError("hello", "the driver answered protocol " + std::to_string(protocol) +
                                     " to a hello for version " + std::to_string(asked));
    }
    const wire::Fields implementation = result.object("implementation");
    const wire::Fields capabilities = result.object("capabilities");
    DriverHello hello{protocol,
                      implementation.text("name"),
                      implementation.text("version"),
                      texts(capabilities, "backends"),
                      texts(capabilities, "areas"),
                      capabilities.boolean("hooks"),
                      capabilities.boolean("hasher"),
                      optional_flag(capabilities, "readOnly")};
    if (protocol >= 2) {
      hello.push = optional_flag(capabilities, "push");
      hello.transactions = optional_flag(capabilities, "transactions");
      hello.push_hooks = optional_flag(capabilities, "pushHooks");
      hello.commands = optional_flag(capabilities, "commands");
      hello.authoritative_queries = optional_flag(capabilities, "queryAuthoritative");
      hello.upstream_tables = optional_flag(capabilities, "upstreamTables");
      hello.coordinator = optional_flag(capabilities, "coordinator");
      hello.command_callbacks = optional_flag(capabilities, "commandCallbacks");
      hello.ensured_schema = optional_flag(capabilities, "ensuredSchema");
      hello.schema_reports =
          !capabilities.has("schemaReport") || capabilities.boolean("schemaReport");
    }
    if (protocol >= 3) {
      hello.table_window = optional_flag(capabilities, "tableWindow");
      hello.partition_registry = optional_flag(capabilities, "partitionRegistry");
    }
    return hello;
  } catch (const wire::WireError& error) {
    throw DriverError("hello", std::string("protocol violation: ") + error.what());
  }
}

wire::Json hello_params(std::int64_t version) {
  return {{"protocol", version}, {"harness", "ssp-conformance"}};
}

}  // namespace

DriverHello say_hello(DriverProcess& process) {
  // The newest version first, then each older one while the driver refuses.
  for (std::int64_t version = wire::kProtocolVersion; version > wire::kOldestProtocolVersion;
       --version) {
    try {
      // A refusal here is how an older driver answers, not its error: a real
      // error is thrown on, and names the driver in the test's failure text.
      const DriverErrorsExpected older_drivers_refuse;
      return read_hello(process.call("hello", hello_params(version)), version);
    } catch (const DriverError& refused) {
      // An older driver refuses the version it does not speak with
      // ssp.unsupported, which reaches here as a DriverError naming the code.
      if (std::string(refused.what()).find(wire::code::unsupported) == std::string::npos ||
          !process.healthy()) {
        throw;
      }
    }
  }
  return read_hello(process.call("hello", hello_params(wire::kOldestProtocolVersion)),
                    wire::kOldestProtocolVersion);
}

}  // namespace ssp::harness
