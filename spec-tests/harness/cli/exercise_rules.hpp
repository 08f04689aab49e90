// What a run must exercise, as main gives it to SectionReport
// (exercised.hpp): every suite's areas, the areas the candidate declares (its
// capabilities less the optional mechanisms: hook points, an injected hasher,
// a read-only open, push hooks) and
// the claims of SSP_CLAIMS (--claim); the backends it cannot reach: those the
// candidate does not implement, and PostgreSQL without SSP_PG_DSN (unless
// SSP_REQUIRE_PG=1, which fails those tests instead).
#pragma once

#include "harness/candidate/candidate.hpp"
#include "harness/verdict/exercised.hpp"

namespace ssp::harness {

// `candidate`: the candidate under test, or null when it did not start (it
// declares nothing then, and every test reports why). Throws
// std::invalid_argument for an SSP_CLAIMS entry that does not parse.
ExerciseRules exercise_rules(const Candidate* candidate);

}  // namespace ssp::harness
