// ssp-reference-driver: the C++ reference served over the driver protocol
// (docs/driver-protocol.md) on stdin and stdout. Logs go to stderr.
// `--no-hooks` declares no hook points, as a production implementation has none,
// and refuses a request that asks for them;
// `--no-commands` no registered commands.
#include <iostream>
#include <string_view>

#include "connection.hpp"
#include "server.hpp"
#include "wire/wire_json.hpp"

namespace {

constexpr const char* kUsage =
    "usage: ssp-reference-driver [--no-hooks] [--no-commands]\n"
    "Serves the C++ reference of the SSP2 storage layer over the driver protocol\n"
    "(JSON lines on stdin and stdout, logs on stderr), for ssp-conformance\n"
    "--candidate 'exec:ssp-reference-driver'.\n"
    "  --no-hooks     declare no hook points (hooks, pushHooks) in hello, and\n"
    "                 refuse a request that asks for them (ssp.unsupported)\n"
    "  --no-commands  declare no registered commands (commands) in hello\n"
    "  --version      print the driver's version and protocol versions\n"
    "  --help         this text\n";

}  // namespace

int main(int argc, char** argv) {
  ssp::driver::DriverSwitches switches;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument == "--no-hooks") {
      switches.hooks = false;
    } else if (argument == "--no-commands") {
      switches.commands = false;
    } else if (argument == "--help" || argument == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (argument == "--version") {
      std::cout << "ssp-reference-driver " << SSP_DRIVER_VERSION << "\ndriver protocol: versions "
                << ssp::wire::kOldestProtocolVersion << " to " << ssp::wire::kProtocolVersion
                << "\n";
      return 0;
    } else {
      std::cerr << "ssp-reference-driver: unknown argument '" << argument << "'\n" << kUsage;
      return 2;
    }
  }
  return ssp::driver::serve_standard_streams(ssp::driver::all_methods(switches));
}
