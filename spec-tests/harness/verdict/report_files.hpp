// --report-dir: the three reports of a run, written side by side
// (docs/harness.md, "Reports"): junit.xml (junit_report.hpp), summary.json
// (summary_json.hpp) and summary.md (summary_markdown.hpp).
#pragma once

#include <filesystem>

#include "harness/verdict/run_summary.hpp"

namespace ssp::harness {

// Writes the three files into `directory`, creating it (and its parents)
// when missing and replacing files of those names. Throws std::runtime_error
// naming the path that could not be written.
void write_reports(const std::filesystem::path& directory, const RunSummary& run);

}  // namespace ssp::harness
