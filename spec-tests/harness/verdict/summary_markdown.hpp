// summary.md: the run as a CI job posts it on a pull request (docs/harness.md,
// "Reports"): the candidate, the verdict and the totals; a matrix of SSP2
// section × backend whose cells read passed / failed / expected-fail /
// skipped; then every failure and error with its reason, the failures that
// do not count, the expected failures, and the skips grouped by reason.
#pragma once

#include <string>

#include "harness/verdict/run_summary.hpp"

namespace ssp::harness {

std::string summary_markdown(const RunSummary& run);

}  // namespace ssp::harness
