// ssp-reference-driver: the C++ reference served over the driver protocol
// (docs/driver-protocol.md) on stdin and stdout. Logs go to stderr.
#include <iostream>

#include "connection.hpp"
#include "server.hpp"

int main() {
  std::ios::sync_with_stdio(false);
  // cin is tied to cout: every read would flush cout from the reading thread,
  // racing the answering threads' writes (they hold the connection's lock).
  std::cin.tie(nullptr);
  ssp::driver::Connection connection(std::cin, std::cout);
  return ssp::driver::serve(connection);
}
