// PostgreSQL segment store: the upstream tables with BYTEA/BIGINT, an `ord`
// column for publication order and an index on the find key (DECISION D8).
#pragma once

#include <memory>
#include <string>

#include "ssp/segments/segment_store.hpp"
#include "ssp/segments/segment_store_options.hpp"

namespace ssp {

// Connects to `dsn` on its own connection, sets search_path to `schema`
// (created if missing unless read_only) and creates the tables if needed.
// Thread-safe (one connection behind a mutex); use one store per thread for
// parallelism. Throws StorageError when it cannot connect.
std::unique_ptr<SegmentStore> open_postgres_segment_store(const std::string& dsn,
                                                          const std::string& schema,
                                                          SegmentStoreOptions options = {});

}  // namespace ssp
