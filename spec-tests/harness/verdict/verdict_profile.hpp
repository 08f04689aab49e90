// Which requirement levels decide a run (docs/harness.md, "The verdict").
//  - spec (the default): a MUST failure fails the run; a SHOULD failure is a
//    warning; a 0.22 or reference-level test runs and is reported apart, and
//    its failure does not fail the run. This is how another implementation is
//    judged: by the spec's words, not by upstream's files or our choices.
//  - 0.22: spec, and a failure of a 0.22 row (the release's behaviour where
//    SSP2 is silent) fails the run too: what an implementation that reads and
//    writes upstream 0.22's databases must also do.
//  - reference: every level fails the run. The reference's own CI runs so,
//    since the reference makes every choice it documents.
#pragma once

#include <string>

#include "harness/catalog/requirement_level.hpp"

namespace ssp::harness {

// `release` is the profile spelled "0.22".
enum class VerdictProfile { spec, release, reference };

// SSP_PROFILE: unset, "" or "spec" → spec; "0.22" → release; "reference" →
// reference. Throws std::invalid_argument naming the accepted values for
// anything else.
VerdictProfile verdict_profile_from_environment();

// Whether a failure of a test at `level` fails a run under `profile`.
bool failure_fails_the_run(VerdictProfile profile, RequirementLevel level);

// "spec", "0.22", "reference".
std::string verdict_profile_name(VerdictProfile profile);

}  // namespace ssp::harness
