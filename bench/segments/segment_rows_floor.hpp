// The rows floor of the segment store (issue 37): the rows a put of a new
// segment, a merge put and a get touch, in the store's own tables with the
// store's own indexes (made by the store's DDL), written and read through the
// raw client library with statements prepared once and nothing else: no
// lock but the transaction's, no store lock, no hook, no merge rule. The
// format fixes these rows (they are what upstream 0.22 reads and writes), so
// a store's rate over its rows floor's says how close it is to what the
// format allows; floor_insert's one-table row says only what a blob costs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ssp/segments/segment_types.hpp"
#include "ssp/sqlite/sqlite_durability.hpp"

namespace ssp::bench {

class SegmentRowsFloor {
 public:
  virtual ~SegmentRowsFloor() = default;

  // A put of bytes never stored: their SHA-256 segment id, then in one
  // transaction the sync_segments row (bytes included), its one
  // sync_segment_scopes row and its one sync_segment_publications row. No
  // read first: the primary key refuses an id already stored (throws
  // std::runtime_error naming it). Returns the record the rows describe, as a
  // put's answer.
  virtual SegmentRecord put_new(const SegmentMetadata& metadata,
                                std::span<const std::uint8_t> bytes, std::int64_t now_ms) = 0;

  // A put of stored bytes under a publication key and scope digest the
  // segment does not hold yet (bench put_merge's put): their segment id, then
  // in one transaction the stored bytes compared with `bytes` in the database,
  // the stored publication rows read (the answer lists them), the top row set
  // to `metadata`, and one scope row and one publication row appended. No
  // pruning, no refresh in place. Throws std::runtime_error naming the id when
  // nothing or other bytes are stored under it. Returns the merged record.
  virtual SegmentRecord put_merge(const SegmentMetadata& metadata,
                                  std::span<const std::uint8_t> bytes, std::int64_t now_ms) = 0;

  // The sync_segments row of `id` with its bytes, its scope rows and its
  // publication rows (oldest first), as a get returns them; absent for an id
  // not stored.
  virtual std::optional<StoredSegment> get(const std::string& id) = 0;
};

// What every rows floor shares: what a put of `bytes` at `now_ms` stores
// (their SHA-256 segment id, and the publication it appends, with the
// store's default lifetime), and the record a put answers, built from its
// publications, oldest first, the put's own last. A floor's answer, not the
// merge rule: the benchmarks' puts never prune or refresh.
struct FloorPut {
  std::string segment_id;
  SegmentPublication publication;
};
FloorPut floor_put(const SegmentMetadata& metadata, std::span<const std::uint8_t> bytes,
                   std::int64_t now_ms);
SegmentRecord floor_answer(std::string segment_id, std::vector<SegmentPublication> publications);

// The one statement of a floor's get, so one snapshot (one read transaction
// on SQLite, one round trip on PostgreSQL): column 0 the part (0 the
// sync_segments row, 1 a scope row, 2 a publication row), columns 1–13 the
// record columns (a scope row: only column 6, its digest), 14 the bytes (top
// row), 15 the publication's position (`position_column`: rowid or ord). No
// ORDER BY: the parts come in branch order, and sorting would make the server
// hold the bytes; the caller orders the publications by column 15.
// `id_parameter` is the dialect's placeholder ("?1", "$1").
std::string floor_get_statement(std::string_view id_parameter, std::string_view position_column);

// What a floor's get returns, from the rows of floor_get_statement in any
// order: each row handed to the method of its part, then take.
class FloorGetRows {
 public:
  void top(const SegmentPublication& top, std::span<const std::uint8_t> bytes);
  void scope(std::string digest) { record_.scope_digests.push_back(std::move(digest)); }
  void publication(std::int64_t position, SegmentPublication publication) {
    publications_.emplace_back(position, std::move(publication));
  }
  // The segment `id`, publications by position; absent without a top row.
  std::optional<StoredSegment> take(const std::string& id);

 private:
  bool found_ = false;
  SegmentRecord record_;
  Bytes bytes_;
  std::vector<std::pair<std::int64_t, SegmentPublication>> publications_;
};

// A rows floor on the SQLite file at `path`, whose segment tables exist, with
// the store's PRAGMAs at `durability` (sqlite_durability_pragmas).
std::unique_ptr<SegmentRowsFloor> make_sqlite_rows_floor(const std::string& path,
                                                         SqliteDurability durability);
// A rows floor on `schema` of the PostgreSQL server at `dsn`, whose segment
// tables exist; autocommit statements, the server's durability.
std::unique_ptr<SegmentRowsFloor> make_postgres_rows_floor(const std::string& dsn,
                                                           const std::string& schema);

}  // namespace ssp::bench
