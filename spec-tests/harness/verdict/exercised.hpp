// What a run exercised of the candidate (docs/harness.md, "What a run
// exercised"), and what makes a run that exercised too little not a pass.
// A test exercises the areas its suite may ask for (suite_capabilities.hpp)
// on its backend when it ran and its level counts under the run's profile; a
// skipped test, or one whose level the profile does not count, exercises
// nothing. An area or backend whose every test was skipped is not a pass;
// one whose tests ran at levels the profile does not count is, since the
// candidate answered them. A run is judged on what the candidate claims: a
// test skipped because the candidate does not declare an area it needs is
// *not claimed*, reported apart and judged nowhere. Pure: the records, the
// suites' areas and the candidate's declaration come in; SectionReport turns
// the problems into exit status 2.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/verdict/test_record.hpp"

namespace ssp::harness {

// One declared area on one backend ("-": tests of no backend).
struct ExercisedPart {
  std::string area;     // a capability key, as --list prints it: "push", "segment_store"
  std::string backend;  // "memory", "sqlite", "postgres" or "-"
  int ran = 0;          // counted tests that ran: passed, failed, expected to fail or erred
  int ran_not_counted = 0;  // tests that ran at a level the profile does not count
  int skipped = 0;          // tests that were skipped (any level)
  std::vector<std::string> skip_reasons;  // distinct, in the order met
  // The MUST tests the part owes (none of them not claimed) and those that
  // ran: the candidate's MUST reach on the part is must_ran / must_owed.
  int must_owed = 0;
  int must_ran = 0;
};

// A part a candidate's CI says must be exercised: `--claim push@sqlite`.
struct Claim {
  std::string area;
  std::string backend;
};

// "push@sqlite,segment_store@memory" → its claims. Throws
// std::invalid_argument naming the entry for one that is not AREA@BACKEND
// with a known area (`known_areas`) and backend.
std::vector<Claim> parse_claims(const std::string& list, const std::vector<std::string>& known_areas);

// A claim and what the run did on its part.
struct ClaimCheck {
  Claim claim;
  int ran = 0;             // counted tests that ran on the part
  bool exercised = false;  // ran > 0 on a reachable backend
};

struct Exercised {
  std::vector<ExercisedPart> parts;  // by area, then backend, for the declared areas
  std::vector<ClaimCheck> claims;    // the rules' claims, in their order
  std::map<std::string, std::string> unreachable;  // backends with tests in the run → why
  // Tests skipped for an area the candidate does not declare, by that area:
  // not claimed, so they judge no part and do not make the run not a pass.
  std::map<std::string, int> not_claimed;
  // Why the run is not a pass, one sentence each naming what did not run
  // (empty when it exercised enough):
  //  - no test was selected, or none ran;
  //  - tests that ask the candidate were selected, and none that counts ran;
  //  - every selected test that asks the candidate was not claimed;
  //  - a declared area, or a reachable backend, had tests in the run and
  //    every one was skipped;
  //  - a claim whose part no counted test ran on.
  std::vector<std::string> not_exercised;
};

// What SectionReport needs to judge what a run exercised.
struct ExerciseRules {
  // Catalog suite name ("PushRows") → the areas its tests may ask for; a
  // suite not in it asks the candidate nothing (the catalog's own checks).
  std::map<std::string, std::vector<std::string>> areas_by_suite;
  std::vector<std::string> declared_areas;  // what the candidate says it implements
  // The areas it does not declare (optional mechanisms such as hook points
  // are not areas): a test skipped for one of them is not claimed.
  std::vector<std::string> undeclared_areas;
  // Backends this run cannot reach → why: one the candidate does not
  // implement, PostgreSQL without a server. Their tests are listed, and judge
  // no area or backend; a claim on one is not exercised.
  std::map<std::string, std::string> unreachable_backends;
  std::vector<Claim> claims;
};

Exercised what_was_exercised(const std::vector<TestRecord>& records, const ExerciseRules& rules);

// The lines a run prints after its section table: each declared area with
// what ran and was skipped per backend and its MUST reach, the tests not
// claimed, then each reason the run is not a pass. "" when `exercised` has
// none of them.
std::string format_exercised(const Exercised& exercised);

}  // namespace ssp::harness
