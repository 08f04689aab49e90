// What a registered remote command (REMOTE §3; design notes push.md §3.1) is
// written in: the request, the command's context, reader and mutations, its
// registry and its refusal. Running one is the reference's
// (ssp/push/remote_command.hpp).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ssp/errors/errors.hpp"
#include "ssp/push/push_types.hpp"

namespace ssp::push {

// A command request refused, or failed, as a whole: nothing is stored, so a
// retry runs again (REMOTE §7). code() is one of
//  - operation.invalid_request: an empty operation, client or request id; a
//    read of an unknown table; a mutation plan that is empty, names an
//    unknown table, deletes an empty row id, or upserts a row without every
//    column or without a non-empty string key;
//  - operation.unknown: no command is registered under the id;
//  - operation.forbidden: authorize refused, or the actor's scopes could not
//    be resolved;
//  - operation.execution_failed: authorize or run threw something else (its
//    text is not carried: "registered remote operation failed").
class OperationError : public SspError {
 public:
  OperationError(std::string code, const std::string& message);
  const std::string& code() const { return code_; }

 private:
  std::string code_;
};

struct CommandRequest {
  std::string operation_id;
  std::string client_id;   // the caller's; never an idempotency key as it is
  std::string request_id;  // one per logical command; a retry repeats it
};

// One full-row write a command asks for. An upsert carries every column of
// the table, in schema order; a delete carries none. No base version: a
// command's read-modify-write is safe because it runs under the lock.
struct CommandMutation {
  OperationKind op = OperationKind::upsert;
  std::string table;
  std::string row_id;
  std::optional<storage::Row> row;
};

// What run reads with: the push transaction's own rows (its staged writes
// included), only those the actor may write. Throws OperationError
// (operation.invalid_request) for an unknown table.
class CommandReader {
 public:
  virtual ~CommandReader() = default;
  virtual std::optional<storage::Row> get_row(const std::string& table,
                                              const std::string& row_id) = 0;
};

struct CommandContext {
  std::string actor_id;
  std::string partition;
  std::string client_id;
  std::string operation_id;
  std::string request_id;
};

struct RemoteCommand {
  // Runs on every delivery, before the idempotency lookup: a retry after a
  // revocation is forbidden, not cached. Must have no side effect.
  std::function<bool(const CommandContext&)> authorize;
  // Runs once per applied command, under the lock, after the locked recheck;
  // never for a replay. Reads only through `read`. Its throw fails the
  // request and stores nothing.
  std::function<std::vector<CommandMutation>(const CommandContext&, CommandReader& read)> run;
};

using CommandRegistry = std::map<std::string, RemoteCommand>;

}  // namespace ssp::push
