// junit.xml: the run as JUnit XML, the format CI systems show test results
// in (docs/harness.md, "Reports"). One <testsuite> per GoogleTest suite, one
// <testcase> per test, each with the properties section, requirement, level,
// backend, candidate, outcome and counts. A counted failure is a <failure>,
// an error an <error>, a skip and an expected failure a <skipped> with the
// reason; a failure that does not count (a SHOULD warning, a reference-level
// failure under profile spec) passes, its message in <system-out>. Failures
// outside every test are the test cases of a last suite, "(outside every
// test)"; what the run exercised, its claims and why it did not exercise
// enough are the cases of "(what the run exercised)". The text is UTF-8 whatever the tests printed (utf8_text.hpp).
#pragma once

#include <string>

#include "harness/verdict/run_summary.hpp"

namespace ssp::harness {

std::string junit_xml(const RunSummary& run);

}  // namespace ssp::harness
