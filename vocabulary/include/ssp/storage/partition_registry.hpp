// The partition registry (SSP2 §2.1; design notes storage.md §5.1, §5.4):
// each partition's log epoch, the continuity of its commit log and
// idempotency records, whether clients must echo it, and when authentication
// last named the partition. Stored in upstream's sync_partition_registry.
#pragma once

#include <cstdint>
#include <string>

namespace ssp::storage {

struct PartitionEntry {
  std::string partition;
  std::string log_epoch;        // non-empty, opaque
  bool epoch_required = false;  // set by a rotation (the restore rule)
  std::int64_t last_authenticated_at_ms = 0;
  friend bool operator==(const PartitionEntry&, const PartitionEntry&) = default;
};

}  // namespace ssp::storage
