// The partition registry's two writes, as every SQL backend states them
// (design notes storage.md §5.1): both insert the entry; on a registered
// partition a touch refreshes the timestamp alone, a rotation replaces the
// epoch, its required flag and the timestamp and deletes the partition's
// client records first.
#pragma once

#include <string_view>

namespace ssp::storage {

enum class RegistryWrite { touch, rotation };

// The SET list of `write`'s ON CONFLICT (partition) DO UPDATE, over
// `excluded`, the same on SQLite and PostgreSQL.
std::string_view registry_conflict_update(RegistryWrite write);

// The registry's columns, in the order backends read them.
inline constexpr std::string_view kRegistryColumns =
    "partition, log_epoch, epoch_required, last_authenticated_at_ms";

}  // namespace ssp::storage
