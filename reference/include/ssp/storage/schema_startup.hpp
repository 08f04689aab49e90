// The ensure_schema startup sequence (storage.md §2.2–§3), written once for
// every SQL backend. A backend supplies a SchemaSession — one open transaction
// that already holds the migration lock — and run_schema_startup does the rest:
// core DDL, marker read, the newer-version refusal, the same-version layout
// and physical checks, or the migration subset ending with the marker upsert.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ssp/storage/layouts.hpp"
#include "ssp/storage/row_codec.hpp"
#include "ssp/storage/schema.hpp"
#include "ssp/storage/schema_report.hpp"
#include "ssp/storage/storage_ddl.hpp"

namespace ssp::storage {

// §2.1: the single marker row. `layouts` is nothing when the column is NULL.
struct StoredMarker {
  std::int64_t version = 0;
  std::optional<std::string> layouts;

  friend bool operator==(const StoredMarker&, const StoredMarker&) = default;
};

// The primary key of an app row, in keyset-walk order.
struct RowKey {
  std::string partition;
  std::string row_id;
};

struct StoredPayload {
  RowKey key;
  Bytes payload;
};

// One transaction on one backend, opened with the migration lock held (Q6:
// two processes starting at once serialize here, before anything is read).
// Destroying an uncommitted session rolls everything back. Every method
// throws StorageError on a backend failure.
class SchemaSession {
 public:
  virtual ~SchemaSession() = default;

  virtual SqlDialect dialect() const = 0;
  // Runs one statement without results.
  virtual void execute(const std::string& sql) = 0;
  // Physical column names of `table` in the current schema; empty = absent.
  virtual std::vector<std::string> physical_columns(const std::string& table) = 0;
  // Indexes on `table` created by CREATE INDEX (not by PRIMARY KEY, UNIQUE or
  // another constraint): the only ones a migration may drop.
  virtual std::vector<std::string> free_standing_indexes(const std::string& table) = 0;
  // §2.1 read; nothing when the marker row is absent. Precondition: the
  // marker table exists.
  virtual std::optional<StoredMarker> read_marker() = 0;
  // §2.1 upsert of row 1 (both columns).
  virtual void write_marker(std::int64_t version, const std::string& layouts) = 0;
  // §3 step 2: deletes the table's sync_row_scopes and sync_blob_refs rows.
  virtual void delete_table_references(const std::string& table) = 0;
  // Up to `limit` rows of `table` after `after`, ordered by (partition, row id)
  // in byte order.
  virtual std::vector<StoredPayload> payload_page(const std::string& table,
                                                  const std::optional<RowKey>& after,
                                                  std::size_t limit) = 0;
  // Sets the row's payload and, when `table` is materialized, its projection
  // columns to `values` (decoded under the table's current layout).
  virtual void rewrite_row(const CompiledTable& table, const RowKey& key, const Row& values,
                           const Bytes& payload) = 0;
  virtual void commit() = 0;
};

struct StartupOptions {
  // false = 0.21 behaviour: at the same version nothing is compared (storage.md
  // §6 B-6). The newer-version refusal and the migration are unaffected.
  bool same_version_checks = true;
  // Rows per keyset page of the payload rewrite (§3 step 6).
  std::size_t rewrite_page_rows = 500;
};

// Runs the sequence inside `session` without committing it. Throws
// SchemaRefusal for every refusal of §2.2 and §3, RowDecodeError never (a
// stored payload that does not decode is a SchemaRefusal naming table, row
// and column), StorageError for backend failures.
SchemaReport run_schema_startup(SchemaSession& session, const CompiledSchema& schema,
                                const StartupOptions& options);

// The §3 step 5 append-only assertion for one table: throws
// SchemaRefusal(not_append_only) with the exact upstream texts.
void assert_append_only(const std::string& table, const StoredTable& stored,
                        const std::vector<ColumnLayout>& configured);

// The exact refusal texts of §2.2.
std::string stored_newer_message(std::int64_t stored, std::int64_t configured);
std::string layouts_disagree_message(std::int64_t configured, const std::string& mismatch);

}  // namespace ssp::storage
