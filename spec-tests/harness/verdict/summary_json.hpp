// summary.json: the run for programs (docs/harness.md, "Reports", documents
// the schema; `format` "ssp-conformance-summary", `version` 1). It holds the
// candidate, the suite that judged it, the profile, the exit status, the
// outcome counts in total and per section × backend × level, every test with
// its outcome and reason,
// every failure outside the tests, and the catalog's requirements, so that
// pages (scripts/spec-pages) need nothing but the summaries.
#pragma once

#include <string>

#include "harness/verdict/run_summary.hpp"

namespace ssp::harness {

inline constexpr int kSummaryJsonVersion = 1;

// The document, indented, UTF-8 whatever the tests printed.
std::string summary_json(const RunSummary& run);

}  // namespace ssp::harness
