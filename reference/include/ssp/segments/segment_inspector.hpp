// Read-only inspection of the SQL segment tables, for operator tools (verify).
// Deliberately not part of SegmentStore: a store answers by key, this scans,
// and only the SQL backends have tables that can drift apart.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ssp {

// Not thread-safe: one thread at a time (each inspector has one connection).
// Each method reads one consistent snapshot; separate calls may see
// different ones, which cannot invent an orphan because a put writes all
// three tables in one transaction and nothing deletes rows.
class SegmentInspector {
 public:
  virtual ~SegmentInspector() = default;

  // Calls `visit(segment_id, bytes)` once per sync_segments row, in no
  // particular order, streaming: `bytes` is valid only during the call.
  // Rows whose id is malformed are visited too. Throws StorageError.
  using SegmentVisitor =
      std::function<void(std::string_view segment_id, std::span<const std::uint8_t> bytes)>;
  virtual void for_each_segment(const SegmentVisitor& visit) = 0;

  // Distinct ids that have sync_segment_scopes rows but no sync_segments row.
  virtual std::vector<std::string> orphan_scope_ids() = 0;

  // Distinct ids that have sync_segment_publications rows but no
  // sync_segments row.
  virtual std::vector<std::string> orphan_publication_ids() = 0;

  // Ids of sync_segments rows without any publication row: written by a 0.21
  // (or intermediate) server and read through the legacy materialization.
  // Valid data, reported as information.
  virtual std::vector<std::string> legacy_ids() = 0;
};

// Opens the SQLite file at `path` read-only: the file is never changed, and a
// 0.21 database is inspected as it would be after the 0.22 upgrade (the same
// emulation as a read-only store). Throws StorageError when the file cannot
// be opened (a missing file is not created).
std::unique_ptr<SegmentInspector> open_sqlite_segment_inspector(const std::string& path);

// Connects to `dsn` with every transaction read-only and search_path set to
// `schema`. Throws StorageError when it cannot connect; queries throw
// StorageError when the segment tables are missing.
std::unique_ptr<SegmentInspector> open_postgres_segment_inspector(const std::string& dsn,
                                                                  const std::string& schema);

}  // namespace ssp
