// Before a command reads a database: is it a segment store at all? Without
// this check a read-only SQLite store answers as an empty store over any
// SQLite file (it builds the 0.22 view in TEMP tables, so that a 0.21 file
// reads as upgraded), and verify would call the wrong file clean; a
// PostgreSQL store fails with the server's words about a missing relation,
// which do not name the schema.
#pragma once

#include <stdexcept>

#include "tool_context.hpp"

namespace ssp::tools {

// The named database cannot be read as a segment store; the message names the
// file or schema and why (exit 2).
class NotASegmentDatabase : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws NotASegmentDatabase unless `target` names an existing SQLite file or
// PostgreSQL schema holding a sync_segments table (the table every segment
// database has, 0.21 ones included). Reads only; creates nothing. Precondition:
// target.kind is not none.
void require_segment_database(const DatabaseTarget& target);

}  // namespace ssp::tools
