#include "harness/util/file_text.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ssp::harness {
namespace {

std::string contents(std::ifstream& in) {
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return contents(in);
}

std::string file_text_or_empty(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return in ? contents(in) : std::string();
}

std::vector<std::filesystem::path> files_with_extension(const std::filesystem::path& directory,
                                                        const std::string& extension) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    if (entry.path().extension() == extension) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace ssp::harness
