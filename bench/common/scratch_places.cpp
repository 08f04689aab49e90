#include "scratch_places.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <stdexcept>

namespace ssp::bench {

std::filesystem::path make_temp_directory() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/ssp-bench.XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot create a temp directory from " + pattern);
  }
  return pattern;
}

std::string fresh_schema_name(std::string_view role) {
  static std::atomic<int> counter{0};
  return "ssp_bench_" + std::to_string(getpid()) + "_" + std::to_string(counter++) + "_" +
         std::string(role);
}

}  // namespace ssp::bench
