// SSP_CANDIDATE → the candidate under test (contract in candidate.hpp).
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "harness/candidate/candidate.hpp"
#include "harness/candidate/wrong_candidates.hpp"
#include "harness/driver/driver_candidate.hpp"

namespace ssp::harness {
namespace {

constexpr const char* kWrongPrefix = "wrong:";
constexpr const char* kExecPrefix = "exec:";

[[noreturn]] void refuse_selection(const std::string& value) {
  std::string wrong_names;
  for (const auto& name : wrong_candidate_names()) {
    wrong_names += (wrong_names.empty() ? "" : ", ") + std::string(kWrongPrefix) + name;
  }
  std::fprintf(stderr,
               "SSP_CANDIDATE=\"%s\" names no candidate. Accepted: unset or \"reference\" (the "
               "C++ reference), \"exec:COMMAND ARGS\" (a driver, docs/driver-protocol.md), or a "
               "deliberately wrong candidate: %s.\n",
               value.c_str(), wrong_names.c_str());
  std::exit(2);
}

Candidate& select_candidate() {
  const char* variable = std::getenv("SSP_CANDIDATE");
  const std::string value = variable ? variable : "";
  if (value.empty() || value == "reference") return reference_candidate();
  if (value.starts_with(kExecPrefix)) {
    // Throws DriverError when the driver does not start or its hello is bad;
    // current_candidate() then throws again in every test, each an error.
    static const std::unique_ptr<Candidate> driver =
        make_driver_candidate(value.substr(std::string(kExecPrefix).size()));
    return *driver;
  }
  if (value.starts_with(kWrongPrefix)) {
    static std::unique_ptr<Candidate> wrong;
    wrong =
        make_wrong_candidate(value.substr(std::string(kWrongPrefix).size()), reference_candidate());
    if (wrong) return *wrong;
  }
  refuse_selection(value);
}

}  // namespace

Candidate& current_candidate() {
  static Candidate& selected = select_candidate();
  return selected;
}

}  // namespace ssp::harness
