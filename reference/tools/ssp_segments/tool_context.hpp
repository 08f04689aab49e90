// What a command runs against: the database named before the command, opened
// read-only on first use, and the output channel for its one JSON answer.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "ssp/segments/segment_inspector.hpp"
#include "ssp/segments/segment_store.hpp"

namespace ssp::tools {

// --sqlite PATH, or --pg DSN [--pg-schema NAME].
struct DatabaseTarget {
  enum class Kind { none, sqlite, postgres };
  Kind kind = Kind::none;
  std::string sqlite_path;
  std::string pg_dsn;
  std::string pg_schema = "public";
};

class ToolContext {
 public:
  ToolContext(DatabaseTarget target, bool pretty, std::ostream& out);

  // The segment store, opened read-only (SegmentStoreOptions::read_only) on
  // first use, so a 0.21 database answers as upgraded without being changed.
  // Throws UsageError when no database was named, NotASegmentDatabase when it
  // is missing or holds no segment tables (segment_database_check.hpp),
  // StorageError when it cannot be opened.
  SegmentStore& store();

  // The read-only inspector over the same database; same errors as store().
  SegmentInspector& inspector();

  // Writes `answer` as one line of JSON (indented with --pretty). Strings are
  // raw UTF-8; bytes that are not UTF-8 (only a damaged row holds them) are
  // printed as U+FFFD. Throws std::runtime_error when stdout cannot be written.
  void print(const nlohmann::ordered_json& answer);

 private:
  // Throws unless a database was named and is a segment database (checked once).
  void require_database();

  DatabaseTarget target_;
  bool pretty_;
  std::ostream& out_;
  bool database_checked_ = false;
  std::unique_ptr<SegmentStore> store_;
  std::unique_ptr<SegmentInspector> inspector_;
};

}  // namespace ssp::tools
