// The candidate's push pipeline (SSP2 §2.1–§2.3, §3.4, §6): one decoded
// PUSH_COMMIT applied, or rejected, through a server storage.
#pragma once

#include "ssp/push/push_types.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::harness {

class PushArea {
 public:
  virtual ~PushArea() = default;

  // Runs `commit` for `actor` through `storage`, which this same candidate
  // opened and brought to `schema` (ensure_schema); a decorator around it
  // cannot cross the driver protocol and is a HarnessError there. Everything
  // in `options` must be what the protocol carries (push.run):
  //  - clock and new_cache_identity are values: each is called once, before
  //    the push, and the candidate uses that value;
  //  - validators, notify and hook are callbacks, run when the candidate
  //    reaches them; hook needs Capability::push_hooks (install_push_hook).
  // Rejections are answers; throws only for failures that are not the push's
  // (nothing is then written).
  virtual push::PushAnswer push(storage::ServerStorage& storage,
                                const storage::CompiledSchema& schema,
                                const push::PushActor& actor, const push::PushCommit& commit,
                                const push::PushOptions& options) = 0;
};

}  // namespace ssp::harness
