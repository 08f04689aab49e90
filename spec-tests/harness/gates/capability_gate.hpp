// Skips a test that needs a part of the surface the candidate under test does
// not implement (an out-of-process driver declares what it lacks in hello).
//
// An optional mechanism a test switches on through options (parking at hook
// points, an injected hasher, a read-only open) is set only through the
// helpers that take a CapabilityGrant (put_gate.hpp, granted_options.hpp), and
// a grant exists only after the gate: a test cannot forget to ask. A candidate
// asked for a capability it lacks anyway throws HarnessError, the suite's bug.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "harness/candidate/candidate.hpp"

namespace ssp::harness {

// Why a test needing `capability` cannot run on `candidate`, or nothing.
std::optional<std::string> capability_gate(const Candidate& candidate, Capability capability);

// The gtest property a test skipped for a missing capability records
// ("missing_capability" → capability_key), so a comparison of two runs can
// tell such a skip from the test's own.
void record_missing_capability(Capability capability);
// A stable one-word name: "segment_store", "push", …
std::string_view capability_key(Capability capability);

// Proof that the running test asked the gate for one capability and the
// candidate has it. Only grant() (behind SSP_GRANT_CAPABILITY, which skips
// first) and optional_grant() make one.
class CapabilityGrant {
 public:
  Capability capability() const { return capability_; }
  // Throws HarnessError unless this grant is for `needed`: a helper given
  // another capability's grant.
  void require(Capability needed) const;

 private:
  explicit CapabilityGrant(Capability capability) : capability_(capability) {}
  friend CapabilityGrant grant(const Candidate& candidate, Capability capability);
  friend std::optional<CapabilityGrant> optional_grant(const Candidate& candidate,
                                                       Capability capability);
  Capability capability_;
};

// The grant, after SSP_REQUIRE_CAPABILITY skipped a test the candidate cannot
// serve; throws HarnessError if the candidate lacks `capability` after all.
CapabilityGrant grant(const Candidate& candidate, Capability capability);

// The grant when the candidate has `capability`, else nothing: for a test
// whose use of it is optional (it checks more where the candidate has more).
std::optional<CapabilityGrant> optional_grant(const Candidate& candidate, Capability capability);

}  // namespace ssp::harness

// In a test or a fixture's SetUp: skips, saying why, unless the candidate has `capability`.
#define SSP_REQUIRE_CAPABILITY(candidate, capability)                              \
  do {                                                                             \
    if (const auto ssp_missing = ::ssp::harness::capability_gate(candidate, capability)) { \
      ::ssp::harness::record_missing_capability(capability);                      \
      GTEST_SKIP() << *ssp_missing;                                                \
    }                                                                              \
  } while (0)

// In a test: skips, saying why, unless the candidate has `capability`; then
// declares `var`, the grant the capability's helpers take.
#define SSP_GRANT_CAPABILITY(var, candidate, capability)         \
  SSP_REQUIRE_CAPABILITY(candidate, capability);                 \
  const ::ssp::harness::CapabilityGrant var = ::ssp::harness::grant(candidate, capability)
