// The reference's message for a push the database failed (docs/push.md, "A
// push, step by step"): what an operator needs to find the commit in a log.
// SPEC leaves the text of a server error open, so this pins the reference
// only.
#include <gmock/gmock.h>

#include "harness/fixtures/push_fixtures.hpp"
#include "ssp/errors/errors.hpp"

namespace ssp::harness {
namespace {

using ::testing::StartsWith;

class ReferencePushFailure : public PushTest {};
SSP_SQL_BACKENDS(ReferencePushFailure);

TEST_P(ReferencePushFailure, PUSH_REF_1_AFailedPushNamesItsCommitClientAndPartition) {
  record_spec("§6.4", "PUSH-REF-1");
  // Ids a log line must not break on: a quote and a line break.
  const auto failing = commit("commit \"7\"\nnext", {upsert("tasks", "t1", task("t1", "p1"))},
                              "client-\"9\"");
  database().inject_write_failure(2);  // the lock's row and one more
  try {
    push(failing);
    ADD_FAILURE() << "the injected failure did not fail the push";
  } catch (const StorageError& error) {
    const std::string first_line = std::string(error.what()).substr(
        0, std::string(error.what()).find('\n'));
    EXPECT_THAT(first_line, StartsWith(R"(push of commit "commit \"7\"\nnext" from client )"
                                       R"("client-\"9\"" to partition "acme" failed: )"));
  }
  database().clear_injected_failures();
  EXPECT_EQ(apply(failing), 1);
}

}  // namespace
}  // namespace ssp::harness
