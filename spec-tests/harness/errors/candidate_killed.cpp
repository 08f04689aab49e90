#include "harness/errors/candidate_killed.hpp"

namespace ssp::harness {

CandidateKilled::CandidateKilled(std::string point)
    : std::runtime_error("the harness killed the candidate's process at " + point),
      point_(std::move(point)) {}

}  // namespace ssp::harness
