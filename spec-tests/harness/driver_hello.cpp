#include "harness/driver_hello.hpp"

#include "harness/driver_error.hpp"

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

}  // namespace

DriverHello say_hello(DriverProcess& process) {
  const wire::Json answer =
      process.call("hello", {{"protocol", wire::kProtocolVersion}, {"harness", "ssp-conformance"}});
  try {
    const wire::Fields result(answer, "result");
    const std::int64_t protocol = result.integer("protocol");
    if (protocol != wire::kProtocolVersion) {
      throw DriverError("hello", "the driver speaks protocol " + std::to_string(protocol) +
                                     ", the harness " + std::to_string(wire::kProtocolVersion));
    }
    const wire::Fields implementation = result.object("implementation");
    const wire::Fields capabilities = result.object("capabilities");
    return DriverHello{implementation.text("name"),
                       implementation.text("version"),
                       texts(capabilities, "backends"),
                       texts(capabilities, "areas"),
                       capabilities.boolean("hooks"),
                       capabilities.boolean("hasher"),
                       capabilities.has("readOnly") && capabilities.boolean("readOnly")};
  } catch (const wire::WireError& error) {
    throw DriverError("hello", std::string("protocol violation: ") + error.what());
  }
}

}  // namespace ssp::harness
