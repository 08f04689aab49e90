// In-memory segment store: a map behind a mutex, indexed by find key.
#pragma once

#include <memory>

#include "ssp/segments/segment_store.hpp"
#include "ssp/segments/segment_store_options.hpp"

namespace ssp {

// Thread-safe. Nothing survives the object. Opened read_only, it is an empty
// store that refuses every put (ReadOnlyStore), like the SQL backends.
std::unique_ptr<SegmentStore> make_memory_segment_store(SegmentStoreOptions options = {});

}  // namespace ssp
