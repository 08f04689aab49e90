// ssp-storage log and verify: read-only inspection of the commit log
// (SSP2 §2.1, §3.1; design notes push.md §6.3). docs/ssp-storage.md.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "read_only_database.hpp"

namespace ssp::tools {

// Writes the commits of `partition` with a seq above `after_seq`, oldest
// first, at most `limit`, one JSON object per line. Throws StorageError when
// the database holds no sync_commits table or cannot be read.
void print_commit_log(ReadOnlyDatabase& database, const std::string& partition,
                      std::int64_t after_seq, std::int64_t limit, std::ostream& out);

// The verdict of verify: nothing when P1, P2 and P5 hold for every partition
// (or only `partition`), else the first violation as one line. `summary`
// receives the counts read ("partitions=… commits=… changes=… pushResults=…").
struct VerifyReport {
  std::optional<std::string> violation;
  std::string summary;
};
// Throws StorageError as print_commit_log.
VerifyReport verify_commit_log(ReadOnlyDatabase& database,
                               const std::optional<std::string>& partition);

}  // namespace ssp::tools
