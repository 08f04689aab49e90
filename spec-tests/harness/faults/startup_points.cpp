#include "harness/faults/startup_points.hpp"

#include <string>

#include "harness/gates/granted_options.hpp"

namespace ssp::harness {

storage::ServerStorageOptions StartupPoints::instrument(
    storage::ServerStorageOptions options, const std::optional<CapabilityGrant>& hooks) const {
  if (hooks) {
    install_ensure_hook(*hooks, options, [trail = trail()](storage::EnsureHookPoint point) {
      trail->pass("ensure-hook:" + std::string(storage::ensure_hook_point_name(point)), false);
    });
  }
  return options;
}

}  // namespace ssp::harness
