// The floor a SQL backend is measured against: the least the same database can
// do with the same bytes. A one-table database (segment_id TEXT PRIMARY KEY,
// bytes BLOB/BYTEA) on its own connection, with the store's durability,
// driven through the raw client library with statements prepared once.
#pragma once

#include <functional>
#include <span>
#include <string>

#include "ssp/segments/segment_types.hpp"

namespace ssp::bench {

class FloorDatabase {
 public:
  virtual ~FloorDatabase() = default;

  // Computes the segment id of `bytes` (SHA-256, as any content-addressed put
  // must) and inserts the row with one single-statement INSERT in autocommit.
  // Returns the id.
  virtual std::string insert(std::span<const std::uint8_t> bytes) = 0;

  // The bytes of `id` by primary key, copied into an owned buffer as a store's
  // get returns them. Throws std::runtime_error naming the id when absent.
  virtual Bytes select(const std::string& id) = 0;

  // Runs `inserts` (calls of insert) in one transaction. Loading only.
  virtual void in_one_transaction(const std::function<void()>& inserts) = 0;
};

}  // namespace ssp::bench
