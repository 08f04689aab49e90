// Runs a RapidCheck property inside the current GoogleTest test, the way
// RC_GTEST_PROP does (RC_PARAMS, reproduce, shrinking, the failure report as
// a test failure), with settings sized to the backend.
#pragma once

#include <functional>

#include "harness/backend.hpp"

namespace ssp::properties {

// PostgreSQL round trips make a case slow, so there the defaults shrink to
// kPostgresMaxSuccess cases of at most kPostgresMaxSize (RapidCheck size:
// for command sequences, the most steps). RC_PARAMS keys max_success and
// max_size, when given, win over this on every backend.
inline constexpr int kPostgresMaxSuccess = 50;
inline constexpr int kPostgresMaxSize = 30;

// Checks `property` (it generates with *gen and asserts with RC_ASSERT) and
// fails the current test with RapidCheck's counterexample when it does not hold.
void check_property(harness::Backend backend, const std::function<void()>& property);

}  // namespace ssp::properties
