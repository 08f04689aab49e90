// Registered remote commands (REMOTE §3; design notes push.md §3.1): trusted
// code that writes application rows through the ordinary push pipeline, under
// the partition lock, after the locked idempotency recheck, with one
// idempotency key per (actor, client, operation, request). The only correct
// way for trusted code to write: a hand-rolled transaction from begin()
// takes no lock (docs/races.md, S1–S4).
#pragma once

#include <string>
#include <utility>

#include "ssp/push/command_types.hpp"
#include "ssp/push/push_types.hpp"
#include "ssp/storage/schema.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::push {

// The push idempotency key of a command (REMOTE §3): the client id
// ["remote-command", actorId, clientId] and the commit id
// [operationId, requestId], each as JSON text, so that no two actors and no
// two splits of the same characters share a key.
std::pair<std::string, std::string> command_idempotency_key(const std::string& actor_id,
                                                            const CommandRequest& request);

// Runs `request` for `actor` through the push pipeline on `storage` (which
// serves `schema`): the answer is the push's (applied, cached, or a stored
// rejection of one of its operations by the ordinary rules). Throws
// OperationError as its declaration lists (ssp/push/command_types.hpp),
// PushRequestError (sync.invalid_client_id) for a client id in the command key
// space, and what run_push throws.
PushAnswer run_remote_command(storage::ServerStorage& storage,
                              const storage::CompiledSchema& schema, const PushActor& actor,
                              const CommandRegistry& registry, const CommandRequest& request,
                              const PushOptions& options);

}  // namespace ssp::push
