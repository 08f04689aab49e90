// The points of a cut (a fault plan's `cut`, docs/faults.md): the k-th round
// trip of a call through the relay (postgres_relay.hpp), cut
// before its request, "round-trip#<k>/before-request", or after its answer,
// "round-trip#<k>/after-answer". A clean call through the relay counts them.
//
// pooled_client_rounds: a client that pools its connections may make fewer
// round trips in a faulted call than in the clean one (Bun.sql prepares a
// statement once per connection, and a call meets whichever connection is
// free), so a call can end before its point, uncut. The fault tests judge it
// as the clean call it was, and fail a sweep that cut none of its points.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "relay/postgres_relay.hpp"

namespace ssp::harness {

// Both points of each of `round_trips` round trips, in order.
std::vector<std::string> round_trip_cut_points(std::int64_t round_trips);

// What a call did that was cut at a point.
struct CutCall {
  std::optional<PostgresRelay::Cut> cut;  // nothing: it ended before the point
  std::optional<std::string> failure;                // its error; nothing: it answered
  // Why it never answered (DriverSilent: the driver stayed silent past its
  // deadline and was killed), without the words that mark an error of the
  // run: the candidate fails fails-cleanly, the run does not err. Nothing: it
  // answered or failed.
  std::optional<std::string> never_answered;
  // "the last statement the cut connection sent: …", for a failure's trace.
  std::string last_statement_line() const;
};

// Arms `relay` to cut at `point` (one of round_trip_cut_points'), then runs
// `call`: what it throws is its failure; a DriverSilent is a call that never
// answered; any other DriverError (the driver crashed or broke the protocol:
// the candidate errs) marks the test and propagates.
CutCall cut_during(PostgresRelay& relay, const std::string& point,
                   const std::function<void()>& call);

}  // namespace ssp::harness
