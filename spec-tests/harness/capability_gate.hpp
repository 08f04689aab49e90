// Skips a test that needs a part of the surface the candidate under test does
// not implement (an out-of-process driver declares what it lacks in hello).
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "harness/candidate.hpp"

namespace ssp::harness {

// Why a test needing `capability` cannot run on `candidate`, or nothing.
std::optional<std::string> capability_gate(const Candidate& candidate, Capability capability);

// The gtest property a test skipped for a missing capability records
// ("missing_capability" → capability_key), so a comparison of two runs can
// tell such a skip from the test's own.
void record_missing_capability(Capability capability);
// A stable one-word name: "segment_store", "push", …
std::string_view capability_key(Capability capability);

}  // namespace ssp::harness

// In a test or a fixture's SetUp: skips, saying why, unless the candidate has `capability`.
#define SSP_REQUIRE_CAPABILITY(candidate, capability)                              \
  do {                                                                             \
    if (const auto ssp_missing = ::ssp::harness::capability_gate(candidate, capability)) { \
      ::ssp::harness::record_missing_capability(capability);                      \
      GTEST_SKIP() << *ssp_missing;                                                \
    }                                                                              \
  } while (0)
