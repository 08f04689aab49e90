// The floor that writes what a push must write (issue 22): in one transaction,
// through the raw client library with statements prepared once per
// connection, every row an applied push of the same commit leaves
// (push_rows.hpp): the partition's commit counter, each operation's
// application row with its projection and its scope row, the commit, one
// change per operation, the commit's change scopes and the stored result. It
// reads nothing, takes no lock of its own, checks no version and decodes
// nothing but the projection. A push's ratio to it is the pipeline's own
// cost; push_floor (push_floor_database.hpp), one table, stays the physical
// bound.
#pragma once

#include <cstdint>
#include <string>

#include "ssp/push/push_pipeline.hpp"

namespace ssp::bench {

class PushRowsFloor {
 public:
  virtual ~PushRowsFloor() = default;

  // Writes the rows of `commit` (insert-only upserts into the workload's tasks
  // table) into `partition`, created at `now_ms`, and commits. Throws a
  // std::runtime_error (the client library's own error on PostgreSQL) when a
  // statement fails; nothing is then committed.
  virtual void write_commit(const push::PushCommit& commit, const std::string& partition,
                            std::int64_t now_ms) = 0;
};

}  // namespace ssp::bench
