#include "sqlite_row_statements.hpp"

#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/storage_ddl.hpp"
#include "ssp/storage/stored_scopes.hpp"

namespace ssp::storage {

using sqlite::Connection;
using sqlite::Statement;

std::string comma_separated(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + quote_identifier(name);
  return out;
}

std::string placeholders(std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += i ? ", ?" : "?";
  return out;
}

std::string where_row() {
  return " WHERE " + quote_identifier(kPartitionColumn) + " = ? AND " +
         quote_identifier(kRowIdColumn) + " = ?";
}

StoredRow stored_row_from(const Statement& read, const std::string& row_id,
                          const std::string& table) {
  const auto payload = read.blob("payload");
  return StoredRow{row_id, read.integer("version"), parse_scopes_json(read.text("scopes"), table),
                   Bytes(payload.begin(), payload.end())};
}

std::string row_columns_sql() {
  return quote_identifier(kRowIdColumn) + " AS row_id, " +
         quote_identifier(kServerVersionColumn) + " AS version, " +
         quote_identifier(kScopesColumn) + " AS scopes, " + quote_identifier(kPayloadColumn) +
         " AS payload";
}

RowSql row_sql(const CompiledTable& table) {
  const std::vector<std::string> columns = table_column_names(table);
  std::string updates;
  for (std::size_t i = 2; i < columns.size(); ++i) {
    updates += (i > 2 ? ", " : "") + quote_identifier(columns[i]) + " = excluded." +
               quote_identifier(columns[i]);
  }
  return {"SELECT " + row_columns_sql() + " FROM " + quote_identifier(table.name()) + where_row(),
          "INSERT INTO " + quote_identifier(table.name()) + " (" + comma_separated(columns) +
              ") VALUES (" + placeholders(columns.size()) + ") ON CONFLICT (" +
              comma_separated({columns[0], columns[1]}) + ") DO UPDATE SET " + updates};
}

std::optional<StoredRow> read_row_on(Connection& connection, const CompiledTable& table,
                                     const RowSql& sql, const std::string& partition,
                                     const std::string& row_id) {
  Statement read = connection.prepare(sql.read);
  read.bind(1, std::string_view(partition)).bind(2, std::string_view(row_id));
  if (!read.step()) return std::nullopt;
  return stored_row_from(read, row_id, table.name());
}

bool write_row_on(Connection& connection, const CompiledTable& table, const RowSql& sql,
                  const std::string& partition, const StoredRow& row, const Row& values) {
  {
    ValueStatement upsert(connection, sql.upsert);
    int next = 1;
    upsert.bind(next++, partition);
    upsert.bind(next++, row.row_id);
    if (table.materialized) {
      for (const RowValue& value : values) upsert.bind(next++, value);
    }
    upsert.bind(next++, row.server_version);
    upsert.bind(next++, scopes_json(row.scopes));
    upsert.bind(next++, row.payload);
    upsert.bind(next, std::monostate{});
    if (!upsert.run_unless_constraint()) return false;
  }
  connection.prepare("DELETE FROM sync_row_scopes WHERE partition = ? AND tbl = ? AND row_id = ?")
      .bind(1, std::string_view(partition))
      .bind(2, std::string_view(table.name()))
      .bind(3, std::string_view(row.row_id))
      .run();
  Statement insert = connection.prepare(
      "INSERT OR IGNORE INTO sync_row_scopes (partition, tbl, var, value, row_id) "
      "VALUES (?, ?, ?, ?, ?)");
  for (const auto& [variable, value] : row.scopes) {
    insert.bind(1, std::string_view(partition))
        .bind(2, std::string_view(table.name()))
        .bind(3, std::string_view(variable))
        .bind(4, std::string_view(value))
        .bind(5, std::string_view(row.row_id))
        .run();
    insert.reset();
  }
  return true;
}

std::optional<std::string> read_push_result_on(Connection& connection,
                                               const std::string& partition,
                                               const std::string& client_id,
                                               const std::string& client_commit_id) {
  Statement read = connection.prepare(
      "SELECT result FROM sync_push_results "
      "WHERE partition = ? AND client_id = ? AND client_commit_id = ?");
  read.bind(1, std::string_view(partition))
      .bind(2, std::string_view(client_id))
      .bind(3, std::string_view(client_commit_id));
  if (!read.step()) return std::nullopt;
  return read.text("result");
}

}  // namespace ssp::storage
