// The commands a test can have any candidate register (docs/driver-protocol.md,
// "command.run"): a small vocabulary over the `tasks` table of the harness's
// push schema (id, project_id, title, done), carried as data because a
// command's code cannot cross the protocol. Each kind is one behaviour a
// remote-command test needs (design notes push.md §3.1, §6.2 R7–R9):
//  - increment: reads the row, writes it back with its title, read as a
//    decimal number, plus one; an absent row counts from 0, in `project`;
//  - move: reads the row and writes it back in project `project` (no row:
//    no mutation);
//  - throw: run throws;
//  - no-mutations: run returns nothing;
//  - unknown-table, empty-row-id, partial-row: run returns one mutation of
//    that defect (a table the schema lacks, a delete of "", an upsert of two
//    columns);
//  - read-unknown-table: run reads a table the schema lacks.
// Also the reference's implementation of it, shared by the in-process
// reference and ssp-reference-driver.
#pragma once

#include <string>

#include "ssp/push/command_types.hpp"
#include "wire/wire_json.hpp"

namespace ssp::wire {

struct DeclaredCommand {
  enum class Kind {
    increment,
    move,
    fail,
    no_mutations,
    unknown_table,
    empty_row_id,
    partial_row,
    read_unknown_table,
  };
  Kind kind = Kind::increment;
  std::string row_id;
  std::string project = "p1";
  friend bool operator==(const DeclaredCommand&, const DeclaredCommand&) = default;
};

// {"kind": "increment" | "move" | "throw" | …, "rowId", "project"}.
Json declared_command_to_json(const DeclaredCommand& command);
DeclaredCommand declared_command_from_json(const Json& value, const std::string& path);

// The command `declared` stands for, whose authorize answers `authorized`.
push::RemoteCommand reference_command(const DeclaredCommand& declared, bool authorized);

}  // namespace ssp::wire
