#include "harness/verdict/test_record.hpp"

#include "harness/candidate/backend.hpp"

namespace ssp::harness {

std::string_view test_outcome_name(TestOutcome outcome) {
  switch (outcome) {
    case TestOutcome::passed:
      return "passed";
    case TestOutcome::failed:
      return "failed";
    case TestOutcome::expected_fail:
      return "expected-fail";
    case TestOutcome::unexpected_pass:
      return "unexpected-pass";
    case TestOutcome::skipped:
      return "skipped";
    case TestOutcome::error:
      return "error";
  }
  return "?";
}

std::optional<std::string> backend_of_test(std::string_view name) {
  const auto slash = name.rfind('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::string_view parameter = name.substr(slash + 1);
  if (!backend_called(parameter)) return std::nullopt;
  return std::string(parameter);
}

}  // namespace ssp::harness
