// The push pipeline (SSP2 §2.1–§2.3, §3.4, §6; design notes push.md §1.1):
// one commit applied through a PushTransaction, or rejected with its
// terminating record persisted, in the fixed order of §6.8–§6.9. Pure rules:
// every effect goes through the storage interface and the injected functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "ssp/push/push_types.hpp"
#include "ssp/storage/schema.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::push {

// Throws PushRequestError(sync.invalid_client_id) when `client_id` starts
// with `["remote-command",`: the key space of remote commands (push.md §5),
// refused for pushes and for the client id a command request carries.
void check_client_id_not_reserved(const std::string& client_id);

// The request-level checks over every PUSH_COMMIT of one request, in the
// order PushRequestError lists them (ssp/push/push_types.hpp) per commit, the
// cap last over the total. Throws
// PushRequestError for the first failure; returns when the request may run.
void check_push_request(std::span<const PushCommit> commits,
                        std::int64_t max_operations = kDefaultMaxOperationsPerRequest);

// Applies or rejects `commit` for `actor` on `storage`, which must serve
// `schema` (ensure_schema succeeded). Rejections (§6.2 conflicts, §3.4
// refusals, bad input of one operation, validator rejections, constraint
// violations) are answers, persisted for replay; an unreadable stored result
// is a non-persisted retryable answer. Throws PushRequestError when
// check_push_request refuses the commit alone (before any read), and
// otherwise for what is not the push's fault (a storage failure, a lost
// connection, a throwing hook, a commit validator that let a failure of its
// reader escape: DECISION Q4): the transaction is rolled back and nothing is
// written. A throwing notifier is ignored: the commit is already durable.
PushAnswer run_push(storage::ServerStorage& storage, const storage::CompiledSchema& schema,
                    const PushActor& actor, const PushCommit& commit, const PushOptions& options);

}  // namespace ssp::push
