// The candidate's registered remote commands (REMOTE §3; design notes push.md
// §3.1): trusted code that writes through the push pipeline under the
// partition lock, with its own idempotency key.
#pragma once

#include <optional>

#include "ssp/push/command_types.hpp"
#include "ssp/push/push_types.hpp"
#include "ssp/storage/server_storage.hpp"
#include "wire/declared_command.hpp"

namespace ssp::harness {

class CommandArea {
 public:
  virtual ~CommandArea() = default;

  // Runs `request` for `actor` through `storage`, which this candidate opened
  // and brought to `schema`. The candidate registers `declared` (a kind of
  // the protocol's small vocabulary) under request.operation_id, or nothing
  // when `declared` is empty, with an authorize that answers `authorized`.
  // `options` is a push's without max_operations_per_request: clock and
  // new_cache_identity are read once, before the command; the hook needs
  // Capability::push_hooks; the validators and the notifier, which run over
  // the command's commit as over a push's (REMOTE §3), need
  // Capability::command_callbacks. A stored rejection is an answer; the
  // request's own failures throw push::OperationError (its code) or
  // push::PushRequestError, with nothing stored.
  virtual push::PushAnswer command(storage::ServerStorage& storage,
                                   const storage::CompiledSchema& schema,
                                   const push::PushActor& actor,
                                   const push::CommandRequest& request,
                                   const std::optional<wire::DeclaredCommand>& declared,
                                   bool authorized, const push::PushOptions& options) = 0;
};

}  // namespace ssp::harness
