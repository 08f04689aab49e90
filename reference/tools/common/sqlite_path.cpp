#include "sqlite_path.hpp"

#include <filesystem>

namespace ssp::tools {

std::optional<std::string> sqlite_path_problem(const std::string& path) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (status.type() == std::filesystem::file_type::not_found) {
    return "no SQLite database at " + path + " (no such file)";
  }
  if (error) return "cannot read " + path + ": " + error.message();
  if (status.type() == std::filesystem::file_type::directory) {
    return path + " is a directory, not a SQLite database file";
  }
  if (status.type() != std::filesystem::file_type::regular) {
    return path + " is not a regular file, so not a SQLite database";
  }
  return std::nullopt;
}

}  // namespace ssp::tools
