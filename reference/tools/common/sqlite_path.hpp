// A --sqlite PATH is checked before SQLite sees it: opening would create a
// missing file (an operator's typo is not a database), and SQLite reports a
// directory as "disk I/O error".
#pragma once

#include <optional>
#include <string>

namespace ssp::tools {

// Why `path` cannot be an existing SQLite database file (missing, a
// directory, not a regular file), or nothing when it can. Does not open it.
std::optional<std::string> sqlite_path_problem(const std::string& path);

}  // namespace ssp::tools
