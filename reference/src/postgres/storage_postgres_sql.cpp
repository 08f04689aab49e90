#include "storage_postgres_sql.hpp"

#include "core/storage/storage_push_transaction.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/storage_ddl.hpp"
#include "ssp/storage/stored_scopes.hpp"
#include "storage_postgres_values.hpp"

namespace ssp::storage {

std::string Params::next_placeholder() const {
  // Not "$" + to_string(…): GCC 12 misreports that concatenation, inlined, as
  // an overlapping copy (-Wrestrict) in release builds.
  std::string placeholder = std::to_string(values_.size() + 1);
  placeholder.insert(placeholder.begin(), '$');
  return placeholder;
}

std::string write_key(std::initializer_list<std::string_view> parts) {
  std::string key;
  for (const std::string_view part : parts) {
    key += part;
    key += '\n';
  }
  return key;
}

Statement row_insert(RowInsert shape, const Params& params, std::string writes) {
  Statement statement;
  statement.sql = shape.head + " VALUES ";
  append_values_row(statement, params);
  statement.sql += shape.tail;
  statement.writes = std::move(writes);
  statement.insert = std::move(shape);
  return statement;
}

pqxx::result Params::exec(pqxx::transaction_base& txn, const std::string& sql,
                          postgres::PreparedStatements* prepared) const {
  std::vector<const char*> pointers;
  for (const auto& value : values_) pointers.push_back(value ? value->c_str() : nullptr);
  if (prepared != nullptr) return prepared->exec(txn, sql, pointers);
  return txn.exec_params(sql, pqxx::prepare::make_dynamic_params(pointers));
}

pqxx::result run(pqxx::transaction_base& txn, const Statement& statement,
                 postgres::PreparedStatements* prepared) {
  return statement.params.exec(txn, statement.sql, prepared);
}

std::unique_ptr<pqxx::connection> open_connection(const std::string& dsn, const std::string& schema,
                                                  std::int64_t lock_wait_ms) {
  auto connection = std::make_unique<pqxx::connection>(dsn);
  pqxx::nontransaction settings(*connection);
  settings.exec("SET search_path TO " + connection->quote_name(schema));
  settings.exec("SET lock_timeout = " + std::to_string(lock_wait_ms));
  return connection;
}

std::string where_row(Params& params, const std::string& partition, const std::string& row_id) {
  std::string sql =
      " WHERE " + quote_identifier(kPartitionColumn) + " = " + params.next_placeholder();
  params.add(partition);
  sql += " AND " + quote_identifier(kRowIdColumn) + " = " + params.next_placeholder();
  params.add(row_id);
  return sql;
}

Bytes bytes_of(const pqxx::field& field) {
  const pqxx::binarystring blob(field);
  return Bytes(blob.begin(), blob.end());
}

std::string row_columns_sql(const std::string& alias) {
  return alias + quote_identifier(kRowIdColumn) + ", " + alias +
         quote_identifier(kServerVersionColumn) + ", " + alias + quote_identifier(kScopesColumn) +
         "::text, " + alias + quote_identifier(kPayloadColumn);
}

StoredRow stored_row_from(const pqxx::row& row, const std::string& table,
                          pqxx::row::size_type first) {
  return StoredRow{row[first].c_str(), row[first + 1].as<std::int64_t>(),
                   parse_scopes_json(row[first + 2].c_str(), table), bytes_of(row[first + 3])};
}

std::optional<StoredRow> read_row_on(pqxx::transaction_base& txn, const CompiledTable& table,
                                     const std::string& partition, const std::string& row_id,
                                     postgres::PreparedStatements* prepared) {
  Params params;
  const std::string sql = "SELECT " + row_columns_sql() + " FROM " +
                          quote_identifier(table.name()) + where_row(params, partition, row_id);
  const pqxx::result rows = params.exec(txn, sql, prepared);
  if (rows.empty()) return std::nullopt;
  return stored_row_from(rows[0], table.name());
}

void append_values_row(Statement& statement, const Params& row) {
  statement.sql += "(";
  for (std::size_t i = 0; i < row.values().size(); ++i) {
    statement.sql += (i == 0 ? "" : ", ") + statement.params.next_placeholder();
    statement.params.add(row.values()[i]);
  }
  statement.sql += ")";
}

namespace {

// Statement::writes of the rows a push writes, one per table or set.
std::string app_row_key(std::string_view table, std::string_view partition,
                        std::string_view row_id) {
  return write_key({table, partition, row_id});
}
std::string row_references_key(std::string_view references, std::string_view table,
                               std::string_view partition, std::string_view row_id) {
  return write_key({references, partition, table, row_id});
}

}  // namespace

Statement app_row_upsert(const CompiledTable& table, const std::string& partition,
                         const StoredRow& row, const Row& values) {
  const std::vector<std::string> columns = table_column_names(table);
  Params params;
  params.add(partition).add(row.row_id);
  if (table.materialized) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      params.add(projection_text(values[i], table.columns()[i].type));
    }
  }
  params.add(std::to_string(row.server_version)).add(scopes_json(row.scopes));
  params.add(bytea_text(row.payload)).add(std::nullopt);
  std::string names;
  std::string updates;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    names += (i ? ", " : "") + quote_identifier(columns[i]);
    if (i >= 2) {
      updates += (i > 2 ? ", " : "") + quote_identifier(columns[i]) + " = excluded." +
                 quote_identifier(columns[i]);
    }
  }
  return row_insert({"INSERT INTO " + quote_identifier(table.name()) + " (" + names + ")",
                     " ON CONFLICT (" + quote_identifier(kPartitionColumn) + ", " +
                         quote_identifier(kRowIdColumn) + ") DO UPDATE SET " + updates},
                    params, app_row_key(table.name(), partition, row.row_id));
}

std::vector<Statement> row_scopes_replacement(const CompiledTable& table,
                                              const std::string& partition, const StoredRow& row,
                                              bool row_was_absent) {
  std::vector<Statement> statements;
  const std::string scopes_key =
      row_references_key("sync_row_scopes", table.name(), partition, row.row_id);
  if (!row_was_absent) {
    Statement removal{
        "DELETE FROM sync_row_scopes WHERE partition = $1 AND tbl = $2 AND row_id = $3", {}};
    removal.params.add(partition).add(table.name()).add(row.row_id);
    removal.writes = scopes_key;
    removal.independent = true;
    statements.push_back(std::move(removal));
  }
  for (const auto& [variable, value] : row.scopes) {
    Params params;
    params.add(partition).add(table.name()).add(variable).add(value).add(row.row_id);
    statements.push_back(
        row_insert({"INSERT INTO sync_row_scopes (partition, tbl, var, value, row_id)",
                    " ON CONFLICT DO NOTHING"},
                   params, scopes_key + write_key({variable, value})));
  }
  return statements;
}

std::vector<Statement> row_deletion(const CompiledTable& table, const std::string& partition,
                                    const std::string& row_id) {
  std::vector<Statement> statements;
  Statement row;
  row.sql =
      "DELETE FROM " + quote_identifier(table.name()) + where_row(row.params, partition, row_id);
  row.writes = app_row_key(table.name(), partition, row_id);
  statements.push_back(std::move(row));
  for (const char* references_table : {"sync_row_scopes", "sync_blob_refs"}) {
    Statement references{"DELETE FROM " + std::string(references_table) +
                             " WHERE partition = $1 AND tbl = $2 AND row_id = $3",
                         {}};
    references.params.add(partition).add(table.name()).add(row_id);
    references.writes = row_references_key(references_table, table.name(), partition, row_id);
    references.independent = true;
    statements.push_back(std::move(references));
  }
  return statements;
}

namespace {

Statement push_result_read(const std::string& partition, const std::string& client_id,
                           const std::string& client_commit_id) {
  Statement statement{
      "SELECT result::text FROM sync_push_results "
      "WHERE partition = $1 AND client_id = $2 AND client_commit_id = $3",
      {}};
  statement.params.add(partition).add(client_id).add(client_commit_id);
  return statement;
}

}  // namespace

std::optional<std::string> read_push_result_on(pqxx::transaction_base& txn,
                                               const std::string& partition,
                                               const std::string& client_id,
                                               const std::string& client_commit_id,
                                               postgres::PreparedStatements* prepared) {
  const pqxx::result rows =
      run(txn, push_result_read(partition, client_id, client_commit_id), prepared);
  if (rows.empty()) return std::nullopt;
  return std::string(rows[0][0].c_str());
}

Statement push_result_insert(const std::string& partition, const std::string& client_id,
                             const std::string& client_commit_id, const std::string& result_json) {
  Params params;
  params.add(partition).add(client_id).add(client_commit_id).add(result_json);
  return row_insert({"INSERT INTO sync_push_results (partition, client_id, client_commit_id, "
                     "result)",
                     " ON CONFLICT DO NOTHING"},
                    params,
                    write_key({"sync_push_results", partition, client_id, client_commit_id}));
}

std::vector<Statement> commit_log_writes(const std::string& partition, std::int64_t commit_seq,
                                         const CommitEntry& entry,
                                         const std::vector<ChangeScope>& scopes) {
  const std::string seq = std::to_string(commit_seq);
  std::vector<Statement> statements;
  Params commit;
  commit.add(partition)
      .add(seq)
      .add(entry.client_id)
      .add(entry.client_commit_id)
      .add(entry.actor_id)
      .add(std::to_string(entry.created_at_ms));
  statements.push_back(row_insert({"INSERT INTO sync_commits (partition, commit_seq, client_id, "
                                   "client_commit_id, actor_id, created_at_ms)",
                                   ""},
                                  commit, write_key({"sync_commits", partition, seq})));
  for (std::size_t idx = 0; idx < entry.changes.size(); ++idx) {
    const Change& change = entry.changes[idx];
    const bool upsert = change.op == ChangeOp::upsert;
    const std::string position = std::to_string(idx);
    Params row;
    row.add(partition)
        .add(seq)
        .add(position)
        .add(change.table)
        .add(change.row_id)
        .add(std::to_string(static_cast<int>(change.op)))
        .add(upsert && change.row_version ? std::optional(std::to_string(*change.row_version))
                                          : std::nullopt)
        .add(scopes_json(change.scopes))
        .add(upsert && change.payload ? std::optional(bytea_text(*change.payload)) : std::nullopt);
    statements.push_back(row_insert({"INSERT INTO sync_changes (partition, commit_seq, idx, tbl, "
                                     "row_id, op, row_version, scopes, payload)",
                                     ""},
                                    row, write_key({"sync_changes", partition, seq, position})));
  }
  for (const ChangeScope& scope : scopes) {
    Params entry;
    entry.add(partition).add(scope.table).add(scope.variable).add(scope.value).add(seq);
    statements.push_back(
        row_insert({"INSERT INTO sync_change_scopes (partition, tbl, var, value, commit_seq)",
                    " ON CONFLICT DO NOTHING"},
                   entry,
                   write_key({"sync_change_scopes", partition, scope.table, scope.variable,
                              scope.value, seq})));
  }
  return statements;
}

bool is_constraint_violation(const pqxx::sql_error& error) {
  return error.sqlstate().size() == 5 && error.sqlstate().compare(0, 2, "23") == 0;
}

}  // namespace ssp::storage
