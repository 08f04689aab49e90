// A read-only view of a server storage database for the inspection commands
// (log, verify): the upstream sync_* tables read by plain SQL, on a
// connection that cannot write. ServerStorage has no read-only mode (opening
// it may create the file; its reads tolerate missing tables), so the tool
// does not go through it here.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ssp::tools {

using SqlParam = std::variant<std::string, std::int64_t>;
// One result row: each cell as text (integers in decimal), nothing for NULL.
using SqlRow = std::vector<std::optional<std::string>>;

class ReadOnlyDatabase {
 public:
  virtual ~ReadOnlyDatabase() = default;
  // Runs `sql` with `?` placeholders bound to `params` in order. Every query
  // of one ReadOnlyDatabase sees the same snapshot. Throws StorageError.
  virtual std::vector<SqlRow> query(const std::string& sql,
                                    const std::vector<SqlParam>& params = {}) = 0;
  // Whether the table `name` exists (in the PostgreSQL schema served).
  virtual bool has_table(const std::string& name) = 0;
  // An SQL expression giving the bytes of `column` as lowercase or uppercase
  // hex, NULL when the column is NULL.
  virtual std::string hex_of(const std::string& column) const = 0;
  // An SQL expression giving `column` as text (JSONB rendered on PostgreSQL).
  virtual std::string text_of(const std::string& column) const = 0;
};

// Opens the SQLite file `path` with SQLITE_OPEN_READONLY: SQLite refuses any
// write on it. The caller checks the path first (sqlite_path.hpp).
std::unique_ptr<ReadOnlyDatabase> open_read_only_sqlite(const std::string& path);

// Connects with default_transaction_read_only on and search_path `pg_schema`,
// and reads in one READ ONLY REPEATABLE READ transaction, never committed.
std::unique_ptr<ReadOnlyDatabase> open_read_only_postgres(const std::string& dsn,
                                                          const std::string& pg_schema);

}  // namespace ssp::tools
