// Ties a test to the SSP2 section and requirement it checks.
#pragma once

#include <string>

namespace ssp::harness {

// Records `section` (e.g. "§5.1") and `requirement` (e.g. "R11", "UPG-R35")
// as gtest properties, so JUnit XML and the section report carry them, and
// fails the test unless its name starts with the requirement id ("UPG-R35"
// → "UPG_R35_"): the name is how a reader finds the requirement.
void record_spec(const std::string& section, const std::string& requirement);

}  // namespace ssp::harness
