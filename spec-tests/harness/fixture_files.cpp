#include "harness/fixture_files.hpp"

#include "harness/file_text.hpp"

namespace ssp::harness {

std::string read_fixture(const std::string& relative_path) {
  const std::string path = std::string(SSP_SOURCE_DIR) + "/fixtures/" + relative_path;
  return read_text_file(path);
}

}  // namespace ssp::harness
