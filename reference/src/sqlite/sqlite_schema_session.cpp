#include "sqlite_schema_session.hpp"

#include "sqlite_row_statements.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/storage_ddl.hpp"

namespace ssp::storage {
namespace {

using sqlite::Connection;
using sqlite::Statement;
using sqlite::Transaction;

class SqliteSchemaSession final : public SchemaSession {
 public:
  // BEGIN IMMEDIATE takes the database write lock: the migration lock.
  explicit SqliteSchemaSession(Connection& connection)
      : connection_(connection), transaction_(connection, Transaction::Kind::write) {}

  SqlDialect dialect() const override { return SqlDialect::sqlite; }
  void execute(const std::string& sql) override { connection_.exec(sql); }

  std::vector<std::string> physical_columns(const std::string& table) override {
    Statement pragma = connection_.prepare("PRAGMA table_info(" + quote_identifier(table) + ")");
    std::vector<std::string> names;
    while (pragma.step()) names.push_back(pragma.text("name"));
    return names;
  }

  std::vector<std::string> free_standing_indexes(const std::string& table) override {
    Statement pragma = connection_.prepare("PRAGMA index_list(" + quote_identifier(table) + ")");
    std::vector<std::string> names;
    while (pragma.step()) {
      if (pragma.text("origin") == "c") names.push_back(pragma.text("name"));
    }
    return names;
  }

  std::optional<StoredMarker> read_marker() override {
    Statement read =
        connection_.prepare("SELECT schema_version, layouts FROM sync_schema_meta WHERE id = 1");
    if (!read.step()) return std::nullopt;
    return StoredMarker{read.integer("schema_version"), read.nullable_text("layouts")};
  }

  void write_marker(std::int64_t version, const std::string& layouts) override {
    connection_
        .prepare(
            "INSERT INTO sync_schema_meta (id, schema_version, layouts) VALUES (1, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET schema_version = excluded.schema_version, "
            "layouts = excluded.layouts")
        .bind(1, version)
        .bind(2, std::string_view(layouts))
        .run();
  }

  void delete_table_references(const std::string& table) override {
    for (const char* sql : {"DELETE FROM sync_row_scopes WHERE tbl = ?",
                            "DELETE FROM sync_blob_refs WHERE tbl = ?"}) {
      connection_.prepare(sql).bind(1, std::string_view(table)).run();
    }
  }

  std::vector<StoredPayload> payload_page(const std::string& table,
                                          const std::optional<RowKey>& after,
                                          std::size_t limit) override {
    const std::string key =
        quote_identifier(kPartitionColumn) + ", " + quote_identifier(kRowIdColumn);
    std::string sql = "SELECT " + key + ", " + quote_identifier(kPayloadColumn) + " FROM " +
                      quote_identifier(table);
    if (after) sql += " WHERE (" + key + ") > (?, ?)";
    sql += " ORDER BY " + key + " LIMIT ?";
    Statement page = connection_.prepare(sql);
    int next = 1;
    if (after) {
      page.bind(next++, std::string_view(after->partition));
      page.bind(next++, std::string_view(after->row_id));
    }
    page.bind(next, static_cast<std::int64_t>(limit));
    std::vector<StoredPayload> rows;
    while (page.step()) {
      const auto payload = page.blob(std::string(kPayloadColumn));
      rows.push_back(
          {{page.text(std::string(kPartitionColumn)), page.text(std::string(kRowIdColumn))},
           Bytes(payload.begin(), payload.end())});
    }
    return rows;
  }

  void rewrite_row(const CompiledTable& table, const RowKey& key, const Row& values,
                   const Bytes& payload) override {
    std::string sql = "UPDATE " + quote_identifier(table.name()) + " SET " +
                      quote_identifier(kPayloadColumn) + " = ?";
    if (table.materialized) {
      for (const Column& column : table.columns())
        sql += ", " + quote_identifier(column.name) + " = ?";
    }
    ValueStatement update(connection_, sql + where_row());
    int next = 1;
    update.bind(next++, payload);
    if (table.materialized) {
      for (const RowValue& value : values) update.bind(next++, value);
    }
    update.bind(next++, key.partition);
    update.bind(next, key.row_id);
    update.step();
  }

  void commit() override { transaction_.commit(); }

 private:
  Connection& connection_;
  Transaction transaction_;
};

}  // namespace

std::unique_ptr<SchemaSession> begin_sqlite_schema_session(sqlite::Connection& connection) {
  return std::make_unique<SqliteSchemaSession>(connection);
}

}  // namespace ssp::storage
