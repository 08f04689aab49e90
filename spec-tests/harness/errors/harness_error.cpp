#include "harness/errors/harness_error.hpp"

namespace ssp::harness {

HarnessError::HarnessError(const std::string& problem)
    : std::logic_error(std::string(run_error_prefix(RunErrorKind::harness)) + problem) {
  mark_running_test(RunErrorKind::harness, what());
}

}  // namespace ssp::harness
