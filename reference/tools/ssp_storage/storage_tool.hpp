// ssp-storage: tells an operator whether a database can be served by a schema
// (check) and applies the migration (migrate); prints a partition's commit log
// (log) and checks its invariants (verify) without writing. docs/ssp-storage.md.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace ssp::tools {

// Exit codes: the verdict, or why there is none.
inline constexpr int kServable = 0;
inline constexpr int kRefused = 1;
inline constexpr int kUsageOrIoError = 2;

// Runs the tool on `args` (without the program name). check and migrate write
// exactly one JSON object and a newline to `out`; log writes one JSON object
// per commit; verify one line, "ok …" or "violation …"; an error of any
// command (exit 2) is one JSON object. Usage text goes to `err`. Returns the exit
// code. `--help` or `-h` as the first argument writes the usage text to `out`
// instead and returns kServable (0). Error messages are one line, without
// internal SQL. check never changes the database: it runs the startup
// sequence in a transaction that is rolled back; log and verify read through
// a read-only connection (read_only_database.hpp).
int run_storage_tool(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace ssp::tools
