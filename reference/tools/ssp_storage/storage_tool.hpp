// ssp-storage: tells an operator whether a database can be served by a schema
// (check) and applies the migration (migrate). docs/ssp-storage.md.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace ssp::tools {

// Exit codes: the verdict, or why there is none.
inline constexpr int kServable = 0;
inline constexpr int kRefused = 1;
inline constexpr int kUsageOrIoError = 2;

// Runs the tool on `args` (without the program name). Writes exactly one JSON
// object and a newline to `out`; usage text goes to `err`. Returns the exit
// code. `--help` or `-h` as the first argument writes the usage text to `out`
// instead and returns kServable (0). Error messages are one line, without
// internal SQL. check never changes the database: it runs the startup
// sequence in a transaction that is rolled back.
int run_storage_tool(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace ssp::tools
