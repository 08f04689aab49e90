// Tests registered once main() has applied the command line, not during
// static initialization: the race schedules are data (--data-dir says where
// it is), and a test file whose tests are made from data must read it after
// the flag is known. Such a file defers its registration here; main() runs
// every one before it lists or runs tests.
#pragma once

#include <functional>

namespace ssp::harness {

// Keeps `registration` (which calls ::testing::RegisterTest) for
// run_deferred_registrations(). Returns true, for a namespace-scope
// initializer. Call during static initialization.
bool defer_registration(std::function<void()> registration);

// Runs every deferred registration once, in the order they were deferred.
void run_deferred_registrations();

}  // namespace ssp::harness
