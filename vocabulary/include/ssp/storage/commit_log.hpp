// The commit log of one partition (SSP2 §2.1, §3.1; design notes storage.md
// §4.1–§4.2): what an applied push appends and what a puller reads back.
// Stored in upstream's sync_commits, sync_changes and sync_change_scopes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ssp/storage/row.hpp"

namespace ssp::storage {

// sync_changes.op: 1 = upsert, 2 = delete (the stored integers).
enum class ChangeOp { upsert = 1, remove = 2 };

// One emitted change. Upserts carry the new row version and payload; deletes
// carry neither. `scopes` are the row's stored scope values (§3.1).
struct Change {
  std::string table;
  std::string row_id;
  ChangeOp op = ChangeOp::upsert;
  std::optional<std::int64_t> row_version;  // upserts only
  std::map<std::string, std::string> scopes;
  std::optional<Bytes> payload;  // upserts only
  friend bool operator==(const Change&, const Change&) = default;
};

// What append_commit writes: the idempotency key and actor of the push, its
// timestamp, and its changes in emission order (idx 0…n−1). A commit may
// have no changes (a push that only deleted absent rows).
struct CommitEntry {
  std::string client_id;
  std::string client_commit_id;
  std::string actor_id;
  std::int64_t created_at_ms = 0;
  std::vector<Change> changes;
  friend bool operator==(const CommitEntry&, const CommitEntry&) = default;
};

// A commit as read back, with the seq it was given.
struct Commit {
  std::int64_t commit_seq = 0;
  CommitEntry entry;
  friend bool operator==(const Commit&, const Commit&) = default;
};

}  // namespace ssp::storage
