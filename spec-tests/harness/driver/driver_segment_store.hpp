// ssp::SegmentStore over a driver's segments.* methods (docs/driver-protocol.md).
#pragma once

#include <memory>
#include <string>

#include "harness/candidate/backend.hpp"
#include "ssp/segments/segment_store.hpp"
#include "ssp/segments/segment_store_options.hpp"

namespace ssp::harness {

// Opens a store in a new process of `command` over `location`. The options'
// put_hook and a hasher other than SHA-256 become callbacks; the caller
// checks the driver advertised them. Throws DriverError, or what the open's
// error answer stands for.
std::unique_ptr<SegmentStore> open_driver_segment_store(const std::string& command,
                                                        const DatabaseLocation& location,
                                                        const SegmentStoreOptions& options);

class DriverHandle;
// The driver handle of `store` when open_driver_segment_store opened it, else
// nullptr: the download and signed-URL methods name the store they read.
DriverHandle* driver_handle_of(SegmentStore& store);

// Whether `options` set a hasher of their own (unset: §5.1's content address).
bool injects_hasher(const SegmentStoreOptions& options);

}  // namespace ssp::harness
