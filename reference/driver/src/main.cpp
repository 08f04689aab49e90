// ssp-reference-driver: the C++ reference served over the driver protocol
// (docs/driver-protocol.md) on stdin and stdout. Logs go to stderr.
// `--no-hooks` declares no hook points, as a production implementation has none;
// `--no-commands` no registered commands.
#include <iostream>
#include <string_view>

#include "connection.hpp"
#include "server.hpp"

int main(int argc, char** argv) {
  ssp::driver::DriverSwitches switches;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument == "--no-hooks") {
      switches.hooks = false;
    } else if (argument == "--no-commands") {
      switches.commands = false;
    } else {
      std::cerr << "ssp-reference-driver: unknown argument '" << argument
                << "'\nusage: ssp-reference-driver [--no-hooks] [--no-commands]\n"
                   "  --no-hooks     declare no hook points (hooks, pushHooks) in hello\n"
                   "  --no-commands  declare no registered commands (commands) in hello\n";
      return 2;
    }
  }
  return ssp::driver::serve_standard_streams(ssp::driver::all_methods(switches));
}
