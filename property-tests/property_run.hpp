// Runs a RapidCheck property inside the current GoogleTest test, the way
// RC_GTEST_PROP does (RC_PARAMS, reproduce, shrinking, the failure report as
// a test failure). Every property of the suite runs through it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace ssp::properties {

// Checks `property` (it generates with *gen and asserts with RC_ASSERT) and
// fails the current test with RapidCheck's counterexample when it does not
// hold. RapidCheck's settings apply (RC_PARAMS included), the same on every
// backend: a smaller PostgreSQL run once let through bugs that the SQLite
// run caught. `default_cases` replaces RapidCheck's default case count
// unless RC_PARAMS sets max_success (for properties whose every case builds
// several real databases).
void check_property(const std::function<void()>& property,
                    std::optional<int> default_cases = std::nullopt);

// Searches `property` as check_property does, without shrinking, and returns
// RapidCheck's report of the first counterexample, or nothing when every case
// held. For a negative control, whose test asserts that the search finds one
// within `default_cases`: a max_success in RC_PARAMS may raise the count,
// never lower it.
std::optional<std::string> find_counterexample(const std::function<void()>& property,
                                               int default_cases);

// A search that once found a counterexample, replayed as a regression case.
struct RecordedSearch {
  std::uint64_t seed;
  int cases;            // max_success of the failing run
  int max_size = 100;   // max_size of the failing run (RapidCheck's default)
};

// Checks `property` exactly as `search` did, whatever RC_PARAMS says (a
// seed names a sequence of cases only together with the case count and the
// size), and fails the current test the same way check_property does. Keeps
// a failure that a fresh seed found once in every later run.
void check_property_at_seed(const std::function<void()>& property, const RecordedSearch& search);

}  // namespace ssp::properties
