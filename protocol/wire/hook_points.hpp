// Hook point names on the wire (docs/driver-protocol.md, "Callbacks").
#pragma once

#include <optional>
#include <string_view>

#include "ssp/segments/segment_store_options.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::wire {

// "before_begin", "after_read", "before_commit".
std::string_view put_hook_point_name(PutHookPoint point);
std::optional<PutHookPoint> put_hook_point_from_name(std::string_view name);
// The names of storage::ensure_hook_point_name, read back.
std::optional<storage::EnsureHookPoint> ensure_hook_point_from_name(std::string_view name);

}  // namespace ssp::wire
