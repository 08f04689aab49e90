// The floor a push is measured against: the least the same database, at the
// same durability, can do to store the rows of one commit. A one-table
// database (row_id TEXT PRIMARY KEY, payload BLOB/BYTEA) on its own
// connection, driven through the raw client library with its INSERT prepared
// once: no partition lock, no version check, no commit log, no projection,
// no stored result.
#pragma once

#include <span>

#include "ssp/push/push_pipeline.hpp"

namespace ssp::bench {

class PushFloorDatabase {
 public:
  virtual ~PushFloorDatabase() = default;

  // One transaction (BEGIN, one INSERT of (row_id, payload) per operation, in
  // order, COMMIT). Every operation must carry a payload. Throws a
  // std::runtime_error (the client library's own error on PostgreSQL) when a
  // statement fails; nothing is then committed.
  virtual void insert_rows(std::span<const push::PushOperation> operations) = 0;
};

}  // namespace ssp::bench
