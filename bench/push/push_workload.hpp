// What the push benchmarks push: one application table and, per thread, a
// deterministic stream of commits whose every operation inserts a new row.
// The push benchmark and its floor draw the same commits from the same
// stream, so both write the same row bytes in the same order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ssp/push/push_pipeline.hpp"
#include "ssp/storage/schema.hpp"

namespace ssp::bench {

// Version 1, one materialized table tasks(id, project_id, title, done), key
// id, scope project:{project_id}: the shape of an ordinary application table.
storage::ServerSchema push_bench_schema();

// Scopes that allow every row of push_bench_schema().
ScopeMap push_bench_scopes();

// The partition a thread pushes to: threads are spread over `partitions`
// round-robin, so with one partition every thread contends on its lock.
std::string push_partition(int thread, int partitions);

// The commits of one thread. commit(i) is that thread's i-th commit: client
// "bench-client-<thread>", commit id "commit-<i>", `operations` upserts with
// base version 0 (insert only) of rows "t<thread>-<i>-<op>" that no other
// thread or index uses, payloads encoded with the reference row codec.
class PushCommitStream {
 public:
  PushCommitStream(const storage::CompiledSchema& schema, int thread, int operations);
  push::PushCommit commit(std::uint64_t index) const;

 private:
  std::vector<storage::ColumnLayout> layout_;
  int thread_;
  int operations_;
};

// 48 bits of a row id (FNV-1a), for checksums: the XOR of these over the rows
// a benchmark wrote proves it wrote them, and stays exact in a double.
std::uint64_t row_checksum_bits(const std::string& row_id);

}  // namespace ssp::bench
