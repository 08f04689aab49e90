// Pull's read of the commit log (SSP2 §4.5, §3.1; design notes storage.md
// §5.1, upstream's readCommitWindow): the commits of one partition in a seq
// window, each cut down to its changes of one table whose stored scopes the
// puller's effective scopes allow. The read that keeps one user's rows from
// another's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ssp/scopes/scope_map.hpp"
#include "ssp/storage/commit_log.hpp"

namespace ssp::storage {

struct TableWindowQuery {
  std::string table;
  // The effective scopes (§3.2): a change matches when, for every variable,
  // its stored value is one of the variable's values.
  ScopeMap scope_filter;
  // The window after_seq < commit_seq <= through_seq.
  std::int64_t after_seq = 0;
  std::int64_t through_seq = 0;
  // The read stops after the commit whose changes bring the count of
  // matching changes to at least this (≥ 1); a commit is never split.
  std::int64_t limit_changes = 1;
};

// One commit of a window: what a COMMIT frame carries (§4.5).
struct WindowCommit {
  std::int64_t commit_seq = 0;
  std::int64_t created_at_ms = 0;
  std::string actor_id;
  std::vector<Change> changes;  // its matching changes, in idx order
  friend bool operator==(const WindowCommit&, const WindowCommit&) = default;
};

}  // namespace ssp::storage
