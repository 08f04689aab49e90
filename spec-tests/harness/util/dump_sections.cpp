#include "harness/util/dump_sections.hpp"

#include <sstream>

namespace ssp::harness {

std::string without_table(const std::string& dump, std::string_view table) {
  const std::string header = "== " + std::string(table);
  std::string kept;
  bool dropping = false;
  std::istringstream in(dump);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("== ")) dropping = line == header;
    if (!dropping) kept += line + '\n';
  }
  return kept;
}

}  // namespace ssp::harness
