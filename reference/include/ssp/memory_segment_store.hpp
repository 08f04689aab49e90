// In-memory segment store: a map behind a mutex, indexed by find key.
#pragma once

#include <memory>

#include "ssp/segment_store.hpp"
#include "ssp/segment_store_options.hpp"

namespace ssp {

// Thread-safe. Nothing survives the object. read_only is ignored.
std::unique_ptr<SegmentStore> make_memory_segment_store(SegmentStoreOptions options = {});

}  // namespace ssp
