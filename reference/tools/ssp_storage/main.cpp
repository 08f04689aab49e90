// ssp-storage: operator tool for the server storage (docs/ssp-storage.md).
#include <iostream>

#include "storage_tool.hpp"

int main(int argc, char** argv) {
  return ssp::tools::run_storage_tool(std::vector<std::string>(argv + 1, argv + argc), std::cout,
                                      std::cerr);
}
