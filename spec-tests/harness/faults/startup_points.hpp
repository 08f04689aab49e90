// The points at which a server startup (ensure_schema, §2.4) waits for the
// harness, named so that a fault plan can pick one (docs/faults.md): each
// ensure hook point, "ensure-hook:<name>" (ensure_hook_point_name:
// before_lock, after_lock, before_commit), where the candidate declares
// hooks (Capability::hooks). Every one of them comes before the startup
// commits. A candidate without hooks makes no callback at startup: only a
// cut connection (a PostgreSQL round trip) faults its startup.
#pragma once

#include <optional>

#include "harness/faults/fault_point_trail.hpp"
#include "harness/gates/capability_gate.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::harness {

class StartupPoints final : public FaultPointSet {
 public:
  // `options` with the ensure hook passing through this object first, given
  // the grant of Capability::hooks; without it, `options` as they are. The
  // returned options share this object's trail.
  storage::ServerStorageOptions instrument(storage::ServerStorageOptions options,
                                           const std::optional<CapabilityGrant>& hooks) const;
};

}  // namespace ssp::harness
