// docs/races.md, written from a run: every schedule as written, what its
// anomaly is, and per permutation and backend what the run observed (the
// outcome table of the design notes' push.md §3.2, filled in by the tests
// rather than by hand). The race tests record their outcomes here; with
// SSP_RACES_DOC=check:PATH the run fails when PATH differs from what it saw,
// and with write:PATH it writes PATH (scripts/races-doc).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/candidate/backend.hpp"
#include "harness/races/schedule.hpp"
#include "harness/util/run_log.hpp"

namespace ssp::harness {

struct RaceOutcome {
  std::string schedule;  // Schedule::name
  std::string requirement;
  std::string label;
  Backend backend = Backend::sqlite;
  std::vector<Expectation> observed;
  bool as_expected = false;
};

// The outcomes of this run, from every thread of it.
using RaceOutcomes = RunLog<RaceOutcome>;

// The page for `schedules` and the outcomes observed for them. Throws
// std::runtime_error naming every permutation and backend with no outcome,
// or one that did not play as its schedule expects: the page shows a whole,
// passing run or nothing.
std::string render_races_doc(const std::vector<Schedule>& schedules,
                             const std::vector<RaceOutcome>& outcomes);

// What SSP_RACES_DOC asks, done with this run's outcomes: nothing when it is
// unset; otherwise the problem in words, or nothing when the page was written
// or matched.
std::optional<std::string> settle_races_doc(const std::vector<Schedule>& schedules);

}  // namespace ssp::harness
