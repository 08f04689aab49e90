// Where a push benchmark measures: a fresh server storage serving
// push_bench_schema() and, next to it, the push floor's one-table database,
// both removed when the site is destroyed. SQLite: a temp directory holding
// the storage's file and the floor's. PostgreSQL: one fresh schema for each.
#pragma once

#include <memory>
#include <string>

#include "common/bench_config.hpp"
#include "push_floor_database.hpp"
#include "push_rows_floor.hpp"
#include "segments/bench_site.hpp"
#include "ssp/storage/server_storage.hpp"

namespace ssp::bench {

// Where a site's server storage lives, for a process that opens it itself
// (the driver benchmarks): a SQLite file, or a schema of a PostgreSQL server.
struct PushStoragePlace {
  BenchBackend backend;
  std::string sqlite_path;  // sqlite
  std::string dsn;          // postgres
  std::string schema;       // postgres
};

class PushSite {
 public:
  virtual ~PushSite() = default;

  // push_bench_schema(), compiled.
  const storage::CompiledSchema& schema() const { return schema_; }

  // A server storage of its own (its own connections) on which ensure_schema
  // has succeeded. Safe to call from several threads at once: the site made
  // the tables when it was created.
  virtual std::unique_ptr<storage::ServerStorage> open_storage() = 0;

  // Where open_storage's storage lives; its tables exist.
  virtual PushStoragePlace storage_place() const = 0;

  // The push floor on a connection of its own.
  virtual std::unique_ptr<PushFloorDatabase> open_floor() = 0;

  // The rows floor (push_rows_floor.hpp) on a connection of its own, over
  // tables the storage's DDL made next to the floor's.
  virtual std::unique_ptr<PushRowsFloor> open_rows_floor() = 0;

 protected:
  PushSite();

 private:
  storage::CompiledSchema schema_;
};

// A fresh site on a SQL backend (sqlite or postgres). Throws when the backend
// cannot be reached, std::invalid_argument for memory (no server storage).
std::unique_ptr<PushSite> make_push_site(BenchBackend backend, const BenchConfig& config);

std::unique_ptr<PushSite> make_sqlite_push_site(const BenchConfig& config);
std::unique_ptr<PushSite> make_postgres_push_site(const BenchConfig& config);

}  // namespace ssp::bench
