// A fault the harness injects, not a failure of the candidate: a test's
// callback throws it instead of answering, and the harness's end of a driver
// then kills the driver's process group, waits until it is gone, and passes
// the exception on to the test (issue 35, docs/faults.md). Whatever the
// process held in memory, an open transaction above all, dies with it, as in
// a crash of a production server; its database stays.
#pragma once

#include <stdexcept>
#include <string>

namespace ssp::harness {

class CandidateKilled : public std::runtime_error {
 public:
  // `point` names where the process died, e.g. "validate_row#2", "hook:after_lock".
  explicit CandidateKilled(std::string point);
  const std::string& point() const { return point_; }

 private:
  std::string point_;
};

}  // namespace ssp::harness
