// The row and commit-log SQL of the PostgreSQL server storage, on any
// transaction: shared by the storage's own calls and its push sessions.
// Builders return a Statement; a caller runs it now (run) or sends it later
// with others (StatementBatch).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <string_view>
#include <vector>

#include "pqxx_guard.hpp"
#include "prepared_statements.hpp"
#include "ssp/storage/commit_log.hpp"
#include "ssp/storage/schema.hpp"
#include "ssp/storage/stored_row.hpp"

namespace ssp::storage {

struct ChangeScope;

inline constexpr const char* kPostgresStorageName = "PostgresServerStorage";

// A libpqxx failure inside `work` as StorageError naming the storage.
template <typename Work>
auto guarded(Work&& work) -> decltype(work()) {
  return postgres::guard_pqxx(kPostgresStorageName, std::forward<Work>(work));
}

// Text parameters in order; nothing is SQL NULL. Every parameter travels as
// text; PostgreSQL types it from its column.
class Params {
 public:
  Params& add(std::optional<std::string> value) {
    values_.push_back(std::move(value));
    return *this;
  }
  // "$n" for the next value added.
  std::string next_placeholder() const;
  const std::vector<std::optional<std::string>>& values() const { return values_; }
  // Runs `sql` in `txn`: as a statement `prepared` holds when given (a push
  // connection), else parsed for this one execution.
  pqxx::result exec(pqxx::transaction_base& txn, const std::string& sql,
                    postgres::PreparedStatements* prepared = nullptr) const;

 private:
  std::vector<std::optional<std::string>> values_;
};

// A one-row INSERT: its text is `head` VALUES ($1, …) `tail`, so that a batch
// can send several of one shape as one multi-row INSERT (statement_merge.hpp).
struct RowInsert {
  std::string head;  // "INSERT INTO t (a, b)"
  std::string tail;  // "" or " ON CONFLICT …"
};

// One statement: its text, $1… numbering `params`.
struct Statement {
  std::string sql;
  Params params;
  // What it writes, as write_key() makes it: a key names one row, or a set
  // of rows when it is a prefix of their keys (a row's scope entries). Empty:
  // unknown, and a batch moves nothing past it.
  std::string writes{};
  std::optional<RowInsert> insert{};  // set when `sql` is a one-row INSERT (row_insert)
  // A statement that is no INSERT but may still run before earlier writes
  // of other rows: no constraint of its table relates its rows to others
  // (the bookkeeping tables, whose only key is the write key).
  bool independent = false;
};

// "part\npart\n…": the key of a write, each part followed by a newline.
std::string write_key(std::initializer_list<std::string_view> parts);

// The INSERT of one row of `params` (head VALUES ($1, …) tail) that writes
// `writes`.
Statement row_insert(RowInsert shape, const Params& params, std::string writes);

// Appends one row of a VALUES list to `statement`: "($n, …)", numbered after
// its parameters, to its text, and `row`'s values to its parameters.
void append_values_row(Statement& statement, const Params& row);

pqxx::result run(pqxx::transaction_base& txn, const Statement& statement,
                 postgres::PreparedStatements* prepared = nullptr);

// A connection for the storage: the configured schema first on the search
// path, lock waits bounded by lock_wait_ms (then StorageError).
std::unique_ptr<pqxx::connection> open_connection(const std::string& dsn, const std::string& schema,
                                                  std::int64_t lock_wait_ms);

// " WHERE <partition> = $n AND <row id> = $n+1", adding both to `params`.
std::string where_row(Params& params, const std::string& partition, const std::string& row_id);

Bytes bytes_of(const pqxx::field& field);

// The columns a StoredRow is read from, in stored_row_from's order, each
// prefixed with `alias` ("t.").
std::string row_columns_sql(const std::string& alias = "");
// The row read from row_columns_sql's columns, starting at column `first`.
StoredRow stored_row_from(const pqxx::row& row, const std::string& table,
                          pqxx::row::size_type first = 0);

std::optional<StoredRow> read_row_on(pqxx::transaction_base& txn, const CompiledTable& table,
                                     const std::string& partition, const std::string& row_id,
                                     postgres::PreparedStatements* prepared = nullptr);

// The app row with its projection, inserted or replacing the stored one.
Statement app_row_upsert(const CompiledTable& table, const std::string& partition,
                         const StoredRow& row, const Row& values);
// The row's sync_row_scopes entries replaced by row.scopes. `row_was_absent`:
// the row is known, under the partition lock, not to exist before this write;
// it then has no entries (every deletion of a row removes its entries in the
// same transaction, upstream's and the reference's alike, and retiring a
// table removes its table's), so the removal is left out: a new row costs one
// statement less (issue 37).
std::vector<Statement> row_scopes_replacement(const CompiledTable& table,
                                              const std::string& partition, const StoredRow& row,
                                              bool row_was_absent);
// The row, its sync_row_scopes and its sync_blob_refs entries.
std::vector<Statement> row_deletion(const CompiledTable& table, const std::string& partition,
                                    const std::string& row_id);

std::optional<std::string> read_push_result_on(pqxx::transaction_base& txn,
                                               const std::string& partition,
                                               const std::string& client_id,
                                               const std::string& client_commit_id,
                                               postgres::PreparedStatements* prepared = nullptr);
// Insert-if-absent.
Statement push_result_insert(const std::string& partition, const std::string& client_id,
                             const std::string& client_commit_id, const std::string& result_json);

// The sync_commits row, the sync_changes rows (idx = position) and the
// sync_change_scopes rows (insert-if-absent) of commit `commit_seq`.
std::vector<Statement> commit_log_writes(const std::string& partition, std::int64_t commit_seq,
                                         const CommitEntry& entry,
                                         const std::vector<ChangeScope>& scopes);

// SQLSTATE class 23: a relational constraint (unique, foreign key, check…).
bool is_constraint_violation(const pqxx::sql_error& error);

}  // namespace ssp::storage
