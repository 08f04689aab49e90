// Whole files as text, for the harness's own files (fixtures, schemas,
// documents it checks) and the output files of the processes it runs.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ssp::harness {

// The bytes of the file at `path`. Throws std::runtime_error naming it when
// it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

// The bytes of the file at `path`, or "" when there is none or it cannot be
// read: for a file that may rightly be missing (a child's output, a WAL).
std::string file_text_or_empty(const std::filesystem::path& path);

// The files of `directory` whose name ends in `extension` (".schedule"),
// sorted by name; none when the directory holds none or cannot be read.
std::vector<std::filesystem::path> files_with_extension(const std::filesystem::path& directory,
                                                        const std::string& extension);

}  // namespace ssp::harness
