#include "harness/data/data_directory.hpp"

#include <cstdlib>
#include <system_error>
#include <vector>

namespace ssp::harness {
namespace {

namespace fs = std::filesystem;

constexpr const char* kVariable = "SSP_DATA_DIR";

// The running program's executable, links resolved: its folder is where an
// installed or built tree's data is looked for.
fs::path running_executable() {
  std::error_code error;
  fs::path executable = fs::read_symlink("/proc/self/exe", error);
  if (error) throw DataDirectoryError("cannot find the running program (/proc/self/exe): " +
                                      error.message());
  return executable;
}

}  // namespace

fs::path data_directory() {
  if (const char* given = std::getenv(kVariable); given != nullptr && *given != '\0') {
    std::error_code error;
    if (!fs::is_directory(given, error)) {
      throw DataDirectoryError(std::string("the data directory ") + given +
                               " (--data-dir or SSP_DATA_DIR) is not a directory");
    }
    return fs::path(given);
  }
  std::vector<fs::path> looked;
  for (fs::path folder = running_executable().parent_path();; folder = folder.parent_path()) {
    looked.push_back(folder / "share" / "ssp-conformance");
    std::error_code error;
    if (fs::is_directory(looked.back(), error)) return looked.back();
    if (folder == folder.root_path() || folder.empty()) break;
  }
  std::string message = "no data directory: the fixtures, schedules, fault plans and requirements "
                        "the suite reads were looked for in";
  for (const fs::path& path : looked) message += "\n  " + path.string();
  throw DataDirectoryError(message + "\nname it with --data-dir DIR (an installed tree's "
                                     "share/ssp-conformance)");
}

fs::path data_path(const std::string& relative) {
  const fs::path path = data_directory() / relative;
  std::error_code error;
  if (!fs::exists(path, error)) {
    throw DataDirectoryError("the suite's data has no " + path.string() +
                             " (the data directory is incomplete; see --data-dir)");
  }
  return path;
}

std::optional<fs::path> repository_directory() {
  const fs::path source = data_directory() / "source";
  std::error_code error;
  if (!fs::is_directory(source, error)) return std::nullopt;
  return fs::canonical(source, error);
}

}  // namespace ssp::harness
