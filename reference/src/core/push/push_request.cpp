// Request-level refusals of a push (push_pipeline.hpp check_push_request).
#include <string_view>

#include "ssp/push/push_pipeline.hpp"

namespace ssp::push {
namespace {

// push.md §5: remote commands key their idempotency records under clientIds
// of this form; a client may not squat them.
constexpr std::string_view kReservedClientIdPrefix = R"(["remote-command",)";

}  // namespace

void check_client_id_not_reserved(const std::string& client_id) {
  if (client_id.starts_with(kReservedClientIdPrefix)) {
    throw PushRequestError("sync.invalid_client_id",
                           "clientId uses the reserved remote-command prefix");
  }
}

void check_push_request(std::span<const PushCommit> commits, std::int64_t max_operations) {
  std::int64_t total = 0;
  for (const PushCommit& commit : commits) {
    check_client_id_not_reserved(commit.client_id);
    if (commit.client_id.empty() || commit.client_commit_id.empty()) {
      throw PushRequestError("sync.invalid_request",
                             "clientId and clientCommitId must be non-empty (§2.3)");
    }
    if (commit.operations.empty()) {
      throw PushRequestError("sync.empty_commit",
                             "commit \"" + commit.client_commit_id + "\" has no operations (§6.1)");
    }
    total += static_cast<std::int64_t>(commit.operations.size());
  }
  if (total > max_operations) {
    throw PushRequestError("sync.too_many_operations",
                           "request carries " + std::to_string(total) +
                               " operations, more than the cap of " +
                               std::to_string(max_operations) + " (§6.1)");
  }
}

}  // namespace ssp::push
