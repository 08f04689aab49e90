// Runs a RapidCheck property inside the current GoogleTest test, the way
// RC_GTEST_PROP does (RC_PARAMS, reproduce, shrinking, the failure report as
// a test failure). Every property of the suite runs through it.
#pragma once

#include <functional>
#include <optional>

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

}  // namespace ssp::properties
