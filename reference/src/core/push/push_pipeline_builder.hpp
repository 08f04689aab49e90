// The push pipeline with its operations built under the lock: what a remote
// command needs (remote_command.cpp). Private to the core.
#pragma once

#include <functional>
#include <vector>

#include "ssp/push/push_pipeline.hpp"

namespace ssp::push {

// Builds the commit's operations on the push transaction, after the
// partition lock and the locked recheck found nothing (hook H3). Its throw
// rolls the transaction back and is thrown on: nothing is stored.
using OperationBuilder = std::function<std::vector<PushOperation>(storage::PushTransaction&)>;

// run_push for `commit` (its ids; its operations are ignored) with the
// operations `build` returns. A replay never calls `build`. No request-level
// check is made: the caller has made its own.
PushAnswer run_push_building(storage::ServerStorage& storage, const storage::CompiledSchema& schema,
                             const PushActor& actor, const PushCommit& commit,
                             const PushOptions& options, const OperationBuilder& build);

}  // namespace ssp::push
