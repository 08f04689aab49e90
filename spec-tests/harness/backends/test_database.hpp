// A database the harness creates for one test and destroys afterwards. Tests
// use it to do what a store never does: seed legacy rows, corrupt bytes,
// inject failures, hold locks, dump tables. Only harness/backends/ knows SQL
// dialects; tests speak in these terms.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/candidate/backend.hpp"

namespace ssp::harness {

class TestDatabase {
 public:
  virtual ~TestDatabase() = default;

  virtual const DatabaseLocation& location() const = 0;

  // Runs raw SQL (one or more statements). Throws on failure.
  virtual void exec(const std::string& sql) = 0;

  // The first column of every row of `sql`, as text (NULL as "NULL").
  virtual std::vector<std::string> query_column(const std::string& sql) = 0;

  // A deterministic text rendering of every row of the segment tables
  // (sync_segments with its bytes in hex, sync_segment_scopes,
  // sync_segment_publications in stored order). Equal dumps = equal state.
  virtual std::string dump_segment_tables() = 0;

  // A deterministic text rendering of the whole database: every table's
  // definition (columns with type, nullability and default), every index and
  // constraint, and every row of every table sorted by all its columns. Equal
  // dumps = the database did not change (storage refusals are side-effect free).
  // It names nothing of the test database itself (a PostgreSQL schema's
  // name), so two databases a candidate left alike dump alike.
  virtual std::string dump_all_tables() = 0;

  // The physical column names of `table` in definition order; empty when the
  // table does not exist.
  virtual std::vector<std::string> column_names(const std::string& table) = 0;

  // Removes `column` from `table` with its data, even a primary-key column
  // (SQLite rebuilds the table by hand; its indexes are not carried over).
  virtual void drop_column(const std::string& table, const std::string& column) = 0;

  // The names of the indexes on `table` created by CREATE INDEX (not by a
  // primary key or constraint), sorted.
  virtual std::vector<std::string> index_names(const std::string& table) = 0;

  // Makes the next insert into `table` fail once `after_rows` rows for the
  // segment being written are already in it (a trigger that raises), so a
  // put dies part-way. Only insert-style writes to sync_segments count.
  virtual void inject_insert_failure(const std::string& table, int after_rows) = 0;

  // Makes the database refuse every row write after the first `after_writes`,
  // on any connection, to every table that exists now, as a failing disk would:
  // a plain database error, never a constraint violation (which a push answers
  // as a rejection). The count lives in a table of its own that the writing
  // transaction updates, so a rolled-back transaction gives its writes back.
  // Row writes include an upsert's insert attempt and its update, and an
  // insert-if-absent that finds its row.
  virtual void inject_write_failure(int after_writes) = 0;

  // Makes the COMMIT of every transaction that wrote a row of any table of
  // the database fail, as a disk failing at the commit's flush would: a
  // deferred check, so every statement before COMMIT succeeds. Returns false,
  // injecting nothing, where the backend has no such check (SQLite: no
  // deferred trigger, and a deferred foreign key needs a pragma on the
  // candidate's own connection).
  virtual bool inject_commit_failure() = 0;

  // Removes every injected failure, with its triggers, functions and tables.
  virtual void clear_injected_failures() = 0;

  // Takes the database-wide write lock on a separate connection and keeps it
  // until release_write_lock(): a store's put must then wait and give up
  // after its lock wait.
  virtual void hold_write_lock() = 0;
  virtual void release_write_lock() = 0;

  // Whether the database shows `waiters` connections held back by a lock,
  // for a race to see that a step waits (schedule_runner.hpp) rather than
  // guess it from time. PostgreSQL: at least that many backends wait for a
  // lock (pg_locks), counting those that hold a lock on a relation of this
  // test's schema or connected as one of its schedule's sessions (application_name `<schema>/<session>`). SQLite shows no waiters: true when some connection holds the
  // write lock, seen by a probe that takes it without waiting, whatever
  // `waiters`. Safe to call from several threads at once.
  virtual bool shows_lock_waits(int waiters) = 0;

  // Whether every connection named in `application_names` (a schedule's
  // sessions each connect with one of their own: schedule_runner.cpp) is
  // held back by a lock: PostgreSQL shows, for each name, a backend of that
  // application_name waiting in pg_locks, so a step counts as waiting only
  // when its own session does. SQLite cannot tell who waits: as
  // shows_lock_waits. Safe to call from several threads at once.
  virtual bool shows_sessions_waiting(const std::vector<std::string>& application_names) = 0;

  // What shows_lock_waits can see here: waiting connections, counted
  // (PostgreSQL), or only that some connection holds the write lock (SQLite),
  // which is true before a step starts to wait as much as after.
  enum class LockWaitEvidence { waiting_connections, held_write_lock };
  virtual LockWaitEvidence lock_wait_evidence() const = 0;
};

// Why `backend` cannot run here, or nothing when it can. PostgreSQL needs
// SSP_PG_DSN.
std::optional<std::string> backend_unavailable(Backend backend);

// True when SSP_REQUIRE_PG=1: an unavailable PostgreSQL is a failure, not a skip.
bool postgres_required();

// A fresh database for `backend` (memory: none, returns nullptr).
std::unique_ptr<TestDatabase> create_test_database(Backend backend);

}  // namespace ssp::harness
