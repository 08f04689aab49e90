#include "harness/faults/round_trip_cuts.hpp"

#include "harness/errors/driver_error.hpp"
#include "harness/errors/run_error_mark.hpp"

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

CutCall cut_during(PostgresRelay& relay, const std::string& point,
                   const std::function<void()>& call) {
  using Moment = PostgresRelay::CutMoment;
  const std::int64_t round_trip = std::stoll(point.substr(point.find('#') + 1));
  relay.cut_at(round_trip,
               point.ends_with(kBeforeRequest) ? Moment::before_request : Moment::after_answer);
  CutCall outcome;
  try {
    // A DriverError marks the test as it is made; only the catch below knows
    // whether it is an error of the run or a call that never answered.
    const DriverErrorsExpected judged_below;
    call();
  } catch (const DriverSilent& silent) {
    // Without the "driver error: " prefix, which would make the test's
    // failure read as an error of the run (reports_run_error).
    std::string why = silent.what();
    const std::string_view prefix = run_error_prefix(RunErrorKind::driver);
    if (why.starts_with(prefix)) why.erase(0, prefix.size());
    outcome.never_answered = why;
  } catch (const DriverError& error) {
    mark_running_test(RunErrorKind::driver, error.what());
    throw;
  } catch (const std::exception& error) {
    outcome.failure = error.what();
  }
  outcome.cut = relay.cut_made();
  return outcome;
}

}  // namespace ssp::harness
