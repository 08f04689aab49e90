// How long a concurrency test waits for something that must happen before it
// calls it a hang. A watchdog only: no test orders its steps with it, and a
// passing test never waits it out, so it is generous (sanitizer builds, a
// loaded CI machine).
#pragma once

#include <chrono>

namespace ssp::harness {

inline constexpr std::chrono::seconds kWatchdog{60};

}  // namespace ssp::harness
