// The partition registry on the wire (docs/driver-protocol.md, version 3,
// "storage.touch_partition" and the methods beside it). Decoders check shapes
// only and name the field path in every WireError.
#pragma once

#include <string>
#include <vector>

#include "ssp/storage/partition_registry.hpp"
#include "wire/wire_json.hpp"

namespace ssp::wire {

// {"partition", "logEpoch", "epochRequired", "lastAuthenticatedAtMs"}.
Json partition_entry_to_json(const storage::PartitionEntry& entry);
storage::PartitionEntry partition_entry_from_json(const Json& value, const std::string& path);

// The answer of storage.list_partition_registry: {"entries": [entry…]}.
Json partition_registry_to_json(const std::vector<storage::PartitionEntry>& entries);
std::vector<storage::PartitionEntry> partition_registry_from_json(const Json& value,
                                                                  const std::string& path);

}  // namespace ssp::wire
