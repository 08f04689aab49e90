#include "harness/gates/backend_gate.hpp"

#include "harness/backends/test_database.hpp"

namespace ssp::harness {

BackendGate backend_gate(const Candidate& candidate, Backend backend) {
  if (!candidate.supports(backend)) {
    return {candidate.name() + " does not implement " + std::string(backend_name(backend)), false};
  }
  if (const auto reason = backend_unavailable(backend)) {
    if (postgres_required()) return {"SSP_REQUIRE_PG=1 but " + *reason, true};
    return {*reason, false};
  }
  return {};
}

}  // namespace ssp::harness
