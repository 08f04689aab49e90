#include "harness/faults/fault_point_trail.hpp"

#include "harness/errors/candidate_killed.hpp"

namespace ssp::harness {

void FaultPointTrail::pass(const std::string& callback, bool counted) {
  const std::string point =
      counted ? callback + "#" + std::to_string(++counts_[callback]) : callback;
  reached_.push_back(point);
  if (kill_at_ && *kill_at_ == point) throw CandidateKilled(point);
}

}  // namespace ssp::harness
