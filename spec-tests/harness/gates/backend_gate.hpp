// Whether a test on a backend can run: the candidate must implement the
// backend, and the backend must be reachable (PostgreSQL needs SSP_PG_DSN).
// Every parameterized fixture's SetUp starts with SSP_SKIP_UNLESS_BACKEND_READY.
#pragma once

#include <optional>
#include <string>

#include "harness/candidate/backend.hpp"
#include "harness/candidate/candidate.hpp"

namespace ssp::harness {

struct BackendGate {
  std::optional<std::string> reason;  // empty: the test runs
  bool is_failure = false;            // SSP_REQUIRE_PG=1 and PostgreSQL is absent
};

BackendGate backend_gate(const Candidate& candidate, Backend backend);

}  // namespace ssp::harness

// In a fixture's SetUp: skips (or fails, see BackendGate) when the backend
// cannot run, saying why.
#define SSP_SKIP_UNLESS_BACKEND_READY(candidate, backend)                        \
  do {                                                                           \
    const ::ssp::harness::BackendGate ssp_gate =                                 \
        ::ssp::harness::backend_gate(candidate, backend);                        \
    if (ssp_gate.reason) {                                                       \
      if (ssp_gate.is_failure) FAIL() << *ssp_gate.reason;                       \
      GTEST_SKIP() << *ssp_gate.reason;                                          \
    }                                                                            \
  } while (0)
