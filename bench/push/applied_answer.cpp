#include "applied_answer.hpp"

namespace ssp::bench {

std::optional<std::string> not_applied(const push::PushAnswer& answer,
                                       const push::PushCommit& commit,
                                       std::int64_t previous_seq) {
  std::string problem = commit.client_id;
  problem += ' ';
  problem += commit.client_commit_id;
  if (answer.status != push::PushAnswerStatus::applied) {
    problem += answer.status == push::PushAnswerStatus::cached ? " answered cached"
                                                               : " answered rejected";
    if (!answer.results.empty()) {
      problem += ": ";
      problem += answer.results.front().code;
      problem += ' ';
      problem += answer.results.front().message;
    }
    return problem;
  }
  if (!answer.commit_seq || *answer.commit_seq <= previous_seq) {
    problem += " was applied without a commit seq above the thread's previous one";
    return problem;
  }
  if (answer.results.size() != commit.operations.size()) {
    problem += " was applied without one record per operation";
    return problem;
  }
  for (const push::OperationResult& record : answer.results) {
    if (record.status != push::OperationStatus::applied) {
      problem += " was applied with an operation that was not";
      return problem;
    }
  }
  return std::nullopt;
}

}  // namespace ssp::bench
