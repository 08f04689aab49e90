#include "harness/util/scratch_directory.hpp"

#include <unistd.h>

#include <cstdlib>

namespace ssp::harness {
namespace {

std::filesystem::path choose() {
  const char* configured = std::getenv("SSP_SCRATCH_DIR");
  if (configured != nullptr && *configured != '\0') return configured;
  const std::filesystem::path memory = "/dev/shm";
  std::error_code error;
  if (std::filesystem::is_directory(memory, error) && access(memory.c_str(), W_OK | X_OK) == 0) {
    return memory;
  }
  return std::filesystem::temp_directory_path();
}

}  // namespace

const std::filesystem::path& scratch_directory() {
  static const std::filesystem::path directory = choose();
  return directory;
}

}  // namespace ssp::harness
