// Where a benchmark measures: a fresh, private place per backend, removed when
// the site is destroyed. SQLite: a temp directory holding the store's file and
// the floor's one-table file. PostgreSQL: one fresh schema for the store and
// one for the floor. Memory: one store object.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/bench_config.hpp"
#include "floor_database.hpp"
#include "segment_rows_floor.hpp"
#include "ssp/segments/segment_store.hpp"

namespace ssp::bench {

enum class BenchBackend { memory, sqlite, postgres };

std::string_view backend_name(BenchBackend backend);

class BenchSite {
 public:
  virtual ~BenchSite() = default;

  // A store on a connection of its own (memory: the site's one store). Safe to
  // call from several threads at once: the tables already exist.
  virtual std::shared_ptr<SegmentStore> open_store() = 0;

  // A store for untimed bulk loading. PostgreSQL commits asynchronously on it
  // (same rows; only the wait for each WAL flush is skipped); the others
  // return open_store().
  virtual std::shared_ptr<SegmentStore> open_loading_store() { return open_store(); }

  // The raw floor on a connection of its own; nullptr for memory.
  virtual std::unique_ptr<FloorDatabase> open_floor() = 0;

  // The rows floor (segment_rows_floor.hpp) on a connection of its own, in a
  // database of its own whose segment tables the store's own DDL made (a file
  // next to the store's; the floor's schema), for puts. nullptr for memory.
  virtual std::unique_ptr<SegmentRowsFloor> open_rows_floor() { return nullptr; }
  // The rows floor on the store's own database, for gets of what the store
  // holds; never put through it. nullptr for memory.
  virtual std::unique_ptr<SegmentRowsFloor> open_rows_floor_on_store() { return nullptr; }

  // After loading, before measuring: PostgreSQL checkpoints, so that measured
  // commits never flush the load's WAL.
  virtual void settle() {}

  // What the store's commits wrote to the write-ahead log since the previous
  // call (the first call only starts counting and returns 0): SQLite, in WAL
  // frames (pages), read as the frame count of a `PRAGMA
  // wal_checkpoint(RESTART)` run from a connection of its own, after which
  // the next commit starts the WAL over; PostgreSQL, in bytes, the advance of pg_current_wal_insert_lsn()
  // (the whole cluster's WAL: the benchmark is its only writer). Absent for
  // memory. Checkpoints and queries, so call it outside timed code only.
  virtual std::optional<std::int64_t> wal_written() { return std::nullopt; }
};

// A fresh site. Throws when the backend cannot be reached.
std::unique_ptr<BenchSite> make_bench_site(BenchBackend backend, const BenchConfig& config);

std::unique_ptr<BenchSite> make_sqlite_site(const BenchConfig& config);
std::unique_ptr<BenchSite> make_postgres_site(const BenchConfig& config);

// The PostgreSQL server's version and durability settings (fsync,
// synchronous_commit, wal_sync_method, full_page_writes), for the report.
std::vector<std::pair<std::string, std::string>> postgres_settings(const std::string& dsn);

}  // namespace ssp::bench
