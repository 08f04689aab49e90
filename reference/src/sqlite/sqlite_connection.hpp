// A thin RAII wrapper over libsqlite3: one connection, prepared statements
// whose result columns are read by name, and a scoped transaction. Every
// failure throws ssp::StorageError with SQLite's message.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ssp::sqlite {

class Statement;

// Result-column names by index, read once per prepared statement.
using ColumnNames = std::vector<std::string>;

class Connection {
 public:
  // Opens `path` read-write (creating it) or read-only. busy_timeout_ms bounds
  // how long a statement waits for another connection's lock.
  Connection(const std::string& path, bool read_only, std::int64_t busy_timeout_ms);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs one or more statements without results.
  void exec(const std::string& sql);
  // A statement for `sql`, reusing one this connection prepared before when
  // it is idle (parsing and planning a statement costs more than running a
  // primary-key lookup). Statements must not outlive their connection.
  Statement prepare(std::string_view sql);
  sqlite3* handle() const { return db_; }

 private:
  friend class Statement;
  struct Prepared {
    sqlite3_stmt* stmt = nullptr;
    ColumnNames columns;
  };
  // Idle prepared statements by SQL text. Map nodes never move, so a
  // Statement keeps a pointer to its pool.
  using Pool = std::vector<Prepared>;

  sqlite3* db_ = nullptr;
  std::map<std::string, Pool, std::less<>> idle_;
};

class Statement {
 public:
  Statement(Connection& connection, std::string_view sql);
  // Resets the statement, clears its bindings and gives it back to the
  // connection for the next prepare() of the same SQL.
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Binding is 1-based, as in SQLite. Returns *this for chaining.
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, const std::optional<std::string>& text);
  // The blob is not copied (segments are large): it must stay valid until
  // this Statement is reset or destroyed, or `index` is bound again.
  Statement& bind_blob(int index, std::span<const std::uint8_t> blob);

  // Steps once: true when a row is available, false when done.
  bool step();
  // Steps to completion (for statements without results).
  void run();
  // Clears bindings and rewinds, so the statement can run again.
  void reset();

  // The SQLite statement, for binding and reading values of types this class
  // does not know (the server storage's row values). Valid while this lives.
  sqlite3_stmt* handle() const { return stmt_; }

  // Columns of the current row, by result-column name. Throws StorageError
  // when the statement has no such column.
  std::int64_t integer(std::string_view column) const;
  std::string text(std::string_view column) const;
  std::optional<std::string> nullable_text(std::string_view column) const;
  std::span<const std::uint8_t> blob(std::string_view column) const;

 private:
  int index_of(std::string_view column) const;

  sqlite3* db_;
  Connection::Pool* pool_;
  sqlite3_stmt* stmt_ = nullptr;
  ColumnNames columns_;
  // Where index_of starts looking: just after the last column it found, as
  // rows are mostly read in select-list order.
  mutable std::size_t next_column_ = 0;
};

// BEGIN (IMMEDIATE for writes, DEFERRED for consistent multi-statement reads)
// on construction; ROLLBACK on destruction unless commit() was called.
class Transaction {
 public:
  enum class Kind { read, write };
  Transaction(Connection& connection, Kind kind);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Connection& connection_;
  bool open_ = true;
};

}  // namespace ssp::sqlite
