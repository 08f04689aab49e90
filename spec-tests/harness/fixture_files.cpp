#include "harness/fixture_files.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ssp::harness {

std::string read_fixture(const std::string& relative_path) {
  const std::string path = std::string(SSP_SOURCE_DIR) + "/fixtures/" + relative_path;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read fixture " + path);
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

}  // namespace ssp::harness
