// The fixture of the push tests (design notes push.md §6.1, §4.4): a storage
// test whose storage serves push_schema(), with builders for commits and
// options and readers of what a push left behind. Payloads are encoded by the
// candidate's own row codec (rows()); expected values never are.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/storage_fixtures.hpp"
#include "ssp/push/push_pipeline.hpp"

namespace ssp::push {
// Failure messages print answers and records field by field.
void PrintTo(const OperationResult& record, std::ostream* out);
void PrintTo(const PushAnswer& answer, std::ostream* out);
}  // namespace ssp::push

namespace ssp::harness {

// Version 1, all materialized:
//  - tasks(id, project_id, title?, done boolean), key id, scope project:{project_id};
//  - members(id, org_id, email), key id, scope org:{org_id}, unique index by_email(email);
//  - docs(id, org_id, team_id, body?), key id, scopes org:{org_id} and team:{team_id}.
storage::ServerSchema push_schema();

// push_schema() at version 2: tasks gains a nullable integer column priority
// after done, so starting on it migrates and rewrites every tasks row.
storage::ServerSchema next_push_schema();

// Every scope variable of push_schema() granted with '*'.
ScopeMap all_scopes();

// The title of a decoded tasks row of push_schema() (its third column), or
// nothing when the row is too short or its title is not text (null).
std::optional<std::string> task_title(const storage::Row& values);

class PushTest : public StorageTest {
 protected:
  void SetUp() override;

  const storage::CompiledSchema& schema() const { return schema_; }

  storage::Bytes task(const std::string& id, const std::string& project,
                      std::optional<std::string> title = std::nullopt, bool done = false);
  storage::Bytes member(const std::string& id, const std::string& org, const std::string& email);
  storage::Bytes doc(const std::string& id, const std::string& org, const std::string& team);
  // The candidate's decoding of `payload` as a row of `table`.
  storage::Row decode(const std::string& table, const storage::Bytes& payload);

  static push::PushOperation upsert(const std::string& table, const std::string& row_id,
                                    storage::Bytes payload,
                                    std::optional<std::int64_t> base_version = std::nullopt);
  static push::PushOperation remove(const std::string& table, const std::string& row_id);
  static push::PushCommit commit(const std::string& client_commit_id,
                                 std::vector<push::PushOperation> operations,
                                 const std::string& client_id = "client-1");

  // Actor "user-1" of partition "acme"; all_scopes() unless told.
  static push::PushActor actor(std::optional<ScopeMap> allowed = all_scopes(),
                               const std::string& partition = "acme");
  // A clock that starts at 1000 and advances by one per read, cache
  // identities "identity-1", "identity-2", …: the push area reads each once
  // per push (push_area.hpp).
  push::PushOptions options();

  // candidate().push().push(storage(), schema(), …).
  push::PushAnswer push(const push::PushCommit& commit);
  push::PushAnswer push(const push::PushCommit& commit, const push::PushOptions& options);
  push::PushAnswer push(const push::PushCommit& commit, const push::PushActor& actor,
                        const push::PushOptions& options);
  // The push must answer applied; returns its commit seq (0 after a failure).
  std::int64_t apply(const push::PushCommit& commit);

  std::int64_t max_seq(const std::string& partition = "acme");
  std::vector<storage::Commit> commits(const std::string& partition = "acme");
  std::optional<storage::StoredRow> row(const std::string& table, const std::string& row_id,
                                        const std::string& partition = "acme");
  // One field of row(), or nothing when the row is absent: tests compare these
  // optionals, so a candidate that loses the row fails instead of crashing.
  std::optional<std::int64_t> version_of(const std::string& table, const std::string& row_id);
  std::optional<storage::Bytes> payload_of(const std::string& table, const std::string& row_id);
  std::optional<std::map<std::string, std::string>> scopes_of(const std::string& table,
                                                              const std::string& row_id);
  // Rows of a sync_ table, counted by the test database.
  std::int64_t count(const std::string& table);

 private:
  storage::CompiledSchema schema_;
  std::int64_t now_ = 1000;
  int identities_ = 0;
};

// An error record as §6.3 defines it (retryable false unless told).
push::OperationResult error_at(std::int64_t op_index, const std::string& code,
                               const std::string& message, bool retryable = false);

}  // namespace ssp::harness
