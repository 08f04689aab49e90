// The capabilities each test suite may ask the candidate for, declared in one
// table so that --list can say what a test needs without running it
// (test_listing.hpp). Every ask goes through the gate (capability_gate.hpp),
// which checks it against this table: a test asking for a capability its
// suite does not declare is a harness error, so the table cannot go stale
// silently. A suite may declare more than one test of it asks for: the table
// says "may need".
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/candidate/candidate.hpp"

namespace ssp::harness {

// Catalog suite name ("SegmentMerge", no instantiation prefix) → the
// capabilities its tests may ask for.
const std::map<std::string, std::vector<Capability>>& suite_capabilities();

// The same, as --list prints it: suite → "push, transactions" (capability_key).
std::map<std::string, std::string> suite_capability_keys();

// Throws HarnessError when a test is running and its suite does not declare
// `capability`; outside every test, nothing.
void require_declared_capability(Capability capability);

}  // namespace ssp::harness
