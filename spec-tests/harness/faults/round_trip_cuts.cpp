#include "harness/faults/round_trip_cuts.hpp"

#include "harness/errors/driver_error.hpp"

namespace ssp::harness {
namespace {

constexpr const char* kBeforeRequest = "/before-request";
constexpr const char* kAfterAnswer = "/after-answer";

}  // namespace

std::vector<std::string> round_trip_cut_points(std::int64_t round_trips) {
  std::vector<std::string> points;
  for (std::int64_t k = 1; k <= round_trips; ++k) {
    points.push_back("round-trip#" + std::to_string(k) + kBeforeRequest);
    points.push_back("round-trip#" + std::to_string(k) + kAfterAnswer);
  }
  return points;
}

std::string CutCall::last_statement_line() const {
  const std::string statement = cut ? cut->last_statement : "";
  return "the last statement the cut connection sent: " +
         (statement.empty() ? std::string("(none)") : statement);
}

CutCall cut_during(PostgresRoundTripCounter& relay, const std::string& point,
                   const std::function<void()>& call) {
  using Moment = PostgresRoundTripCounter::CutMoment;
  const std::int64_t round_trip = std::stoll(point.substr(point.find('#') + 1));
  relay.cut_at(round_trip,
               point.ends_with(kBeforeRequest) ? Moment::before_request : Moment::after_answer);
  CutCall outcome;
  try {
    call();
  } catch (const DriverError&) {
    throw;
  } catch (const std::exception& error) {
    outcome.failure = error.what();
  }
  outcome.cut = relay.cut_made();
  return outcome;
}

}  // namespace ssp::harness
