// The server storage on PostgreSQL. Only SQL lives here: the startup sequence,
// the memo and the row checks are ServerStorageBase and run_schema_startup.
// Every parameter travels as text; PostgreSQL types it from its column.
#include <charconv>
#include <cmath>
#include <pqxx/pqxx>

#include "../core/storage_server_base.hpp"
#include "pqxx_guard.hpp"
#include "ssp/errors.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/postgres_server_storage.hpp"
#include "ssp/storage/storage_ddl.hpp"
#include "ssp/storage/stored_scopes.hpp"
#include "storage_postgres_values.hpp"

namespace ssp::storage {
namespace {

constexpr const char* kStorageName = "PostgresServerStorage";

// First key of the migration advisory lock ('SSPM'); the second is
// hashtext(schema name). A hash collision only serializes two schemas.
constexpr int kMigrationLockClass = 0x5353504d;

template <typename Work>
auto guarded(Work&& work) -> decltype(work()) {
  return postgres::guard_pqxx(kStorageName, std::forward<Work>(work));
}

// Text parameters in order; nothing is SQL NULL.
class Params {
 public:
  Params& add(std::optional<std::string> value) {
    values_.push_back(std::move(value));
    return *this;
  }
  std::string next_placeholder() const { return "$" + std::to_string(values_.size() + 1); }
  pqxx::result exec(pqxx::transaction_base& txn, const std::string& sql) const {
    std::vector<const char*> pointers;
    for (const auto& value : values_) pointers.push_back(value ? value->c_str() : nullptr);
    return txn.exec_params(sql, pqxx::prepare::make_dynamic_params(pointers));
  }

 private:
  std::vector<std::optional<std::string>> values_;
};

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

class PostgresSchemaSession final : public SchemaSession {
 public:
  PostgresSchemaSession(pqxx::connection& connection, std::string schema)
      : txn_(connection), schema_(std::move(schema)) {
    txn_.exec_params("SELECT pg_advisory_xact_lock($1, hashtext($2))", kMigrationLockClass,
                     schema_);
    const std::string quoted = txn_.quote_name(schema_);
    // Checked first: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database
    // even when the schema exists.
    if (txn_.exec_params("SELECT 1 FROM pg_namespace WHERE nspname = $1", schema_).empty()) {
      txn_.exec("CREATE SCHEMA " + quoted);
    }
    txn_.exec("SET LOCAL search_path TO " + quoted);
  }

  SqlDialect dialect() const override { return SqlDialect::postgres; }
  void execute(const std::string& sql) override {
    guarded([&] { txn_.exec(sql); });
  }

  std::vector<std::string> physical_columns(const std::string& table) override {
    return guarded([&] {
      std::vector<std::string> names;
      for (const auto& row :
           txn_.exec_params("SELECT column_name FROM information_schema.columns "
                            "WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position",
                            schema_, table)) {
        names.emplace_back(row[0].c_str());
      }
      return names;
    });
  }

  std::vector<std::string> free_standing_indexes(const std::string& table) override {
    return guarded([&] {
      std::vector<std::string> names;
      for (const auto& row : txn_.exec_params(
               "SELECT i.relname FROM pg_index x "
               "JOIN pg_class i ON i.oid = x.indexrelid "
               "JOIN pg_class t ON t.oid = x.indrelid "
               "JOIN pg_namespace n ON n.oid = t.relnamespace "
               "WHERE n.nspname = $1 AND t.relname = $2 AND NOT x.indisprimary "
               "AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid) "
               "ORDER BY i.relname",
               schema_, table)) {
        names.emplace_back(row[0].c_str());
      }
      return names;
    });
  }

  std::optional<StoredMarker> read_marker() override {
    return guarded([&]() -> std::optional<StoredMarker> {
      // The version is read as text and parsed: no driver-side number coercion (B-12).
      const pqxx::result rows = txn_.exec(
          "SELECT schema_version::text AS version, layouts FROM sync_schema_meta WHERE id = 1");
      if (rows.empty()) return std::nullopt;
      StoredMarker marker;
      marker.version = std::stoll(rows[0]["version"].c_str());
      if (!rows[0]["layouts"].is_null()) marker.layouts = rows[0]["layouts"].c_str();
      return marker;
    });
  }

  void write_marker(std::int64_t version, const std::string& layouts) override {
    return guarded([&] {
      txn_.exec_params(
          "INSERT INTO sync_schema_meta (id, schema_version, layouts) VALUES (1, $1, $2) "
          "ON CONFLICT (id) DO UPDATE SET schema_version = excluded.schema_version, "
          "layouts = excluded.layouts",
          version, layouts);
    });
  }

  void delete_table_references(const std::string& table) override {
    return guarded([&] {
      txn_.exec_params("DELETE FROM sync_row_scopes WHERE tbl = $1", table);
      txn_.exec_params("DELETE FROM sync_blob_refs WHERE tbl = $1", table);
    });
  }

  std::vector<StoredPayload> payload_page(const std::string& table,
                                          const std::optional<RowKey>& after,
                                          std::size_t limit) override {
    return guarded([&] {
      // COLLATE "C": byte order, the order SQLite walks in.
      const std::string key = quote_identifier(kPartitionColumn) + " COLLATE \"C\", " +
                              quote_identifier(kRowIdColumn) + " COLLATE \"C\"";
      std::string sql = "SELECT " + quote_identifier(kPartitionColumn) + ", " +
                        quote_identifier(kRowIdColumn) + ", " + quote_identifier(kPayloadColumn) +
                        " FROM " + quote_identifier(table);
      Params params;
      if (after) {
        sql += " WHERE (" + key + ") > ($1, $2)";
        params.add(after->partition).add(after->row_id);
      }
      sql += " ORDER BY " + key + " LIMIT " + std::to_string(limit);
      std::vector<StoredPayload> rows;
      for (const auto& row : params.exec(txn_, sql)) {
        rows.push_back({{row[0].c_str(), row[1].c_str()}, bytes_of(row[2])});
      }
      return rows;
    });
  }

  void rewrite_row(const CompiledTable& table, const RowKey& key, const Row& values,
                   const Bytes& payload) override {
    return guarded([&] {
      Params params;
      std::string sql = "UPDATE " + quote_identifier(table.name()) + " SET " +
                        quote_identifier(kPayloadColumn) + " = " + params.next_placeholder();
      params.add(bytea_text(payload));
      if (table.materialized) {
        for (std::size_t i = 0; i < values.size(); ++i) {
          sql +=
              ", " + quote_identifier(table.columns()[i].name) + " = " + params.next_placeholder();
          params.add(projection_text(values[i], table.columns()[i].type));
        }
      }
      sql += where_row(params, key.partition, key.row_id);
      params.exec(txn_, sql);
    });
  }

  void commit() override {
    guarded([&] { txn_.commit(); });
  }

 private:
  pqxx::work txn_;
  std::string schema_;
};

class PostgresServerStorage final : public ServerStorageBase {
 public:
  PostgresServerStorage(const std::string& dsn, std::string schema, ServerStorageOptions options)
      : ServerStorageBase(std::move(options)), schema_(std::move(schema)) {
    guarded([&] {
      connection_ = std::make_unique<pqxx::connection>(dsn);
      pqxx::nontransaction settings(*connection_);
      settings.exec("SET search_path TO " + connection_->quote_name(schema_));
      settings.exec("SET lock_timeout = " + std::to_string(this->options().lock_wait_ms));
      return 0;
    });
  }

 protected:
  std::unique_ptr<SchemaSession> begin_schema_session() override {
    return guarded([&] { return std::make_unique<PostgresSchemaSession>(*connection_, schema_); });
  }

  std::optional<StoredRow> read_row(const CompiledTable& table, const std::string& partition,
                                    const std::string& row_id) override {
    return guarded([&]() -> std::optional<StoredRow> {
      pqxx::work txn(*connection_);
      Params params;
      const std::string sql = "SELECT " + quote_identifier(kServerVersionColumn) + ", " +
                              quote_identifier(kScopesColumn) + "::text, " +
                              quote_identifier(kPayloadColumn) + " FROM " +
                              quote_identifier(table.name()) + where_row(params, partition, row_id);
      const pqxx::result rows = params.exec(txn, sql);
      if (rows.empty()) return std::nullopt;
      return StoredRow{row_id, rows[0][0].as<std::int64_t>(),
                       parse_scopes_json(rows[0][1].c_str(), table.name()), bytes_of(rows[0][2])};
    });
  }

  void write_row(const CompiledTable& table, const std::string& partition, const StoredRow& row,
                 const Row& values) override {
    guarded([&] {
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
      std::string placeholders;
      std::string updates;
      for (std::size_t i = 0; i < columns.size(); ++i) {
        names += (i ? ", " : "") + quote_identifier(columns[i]);
        placeholders += (i ? ", $" : "$") + std::to_string(i + 1);
        if (i >= 2) {
          updates += (i > 2 ? ", " : "") + quote_identifier(columns[i]) + " = excluded." +
                     quote_identifier(columns[i]);
        }
      }
      pqxx::work txn(*connection_);
      params.exec(txn, "INSERT INTO " + quote_identifier(table.name()) + " (" + names +
                           ") VALUES (" + placeholders + ") ON CONFLICT (" +
                           quote_identifier(kPartitionColumn) + ", " +
                           quote_identifier(kRowIdColumn) + ") DO UPDATE SET " + updates);
      txn.exec_params(
          "DELETE FROM sync_row_scopes WHERE partition = $1 AND tbl = $2 AND row_id = $3",
          partition, table.name(), row.row_id);
      for (const auto& [variable, value] : row.scopes) {
        txn.exec_params(
            "INSERT INTO sync_row_scopes (partition, tbl, var, value, row_id) "
            "VALUES ($1, $2, $3, $4, $5)",
            partition, table.name(), variable, value, row.row_id);
      }
      txn.commit();
      return 0;
    });
  }

  std::optional<Row> read_projection_row(const CompiledTable& table, const std::string& partition,
                                         const std::string& row_id) override {
    return guarded([&]() -> std::optional<Row> {
      pqxx::work txn(*connection_);
      std::string names;
      for (const Column& column : table.columns()) {
        names += (names.empty() ? "" : ", ") + quote_identifier(column.name) + "::text";
      }
      Params params;
      const pqxx::result rows =
          params.exec(txn, "SELECT " + names + " FROM " + quote_identifier(table.name()) +
                               where_row(params, partition, row_id));
      if (rows.empty()) return std::nullopt;
      Row values;
      for (std::size_t i = 0; i < table.columns().size(); ++i) {
        const pqxx::field field = rows[0][static_cast<pqxx::row::size_type>(i)];
        values.push_back(field.is_null()
                             ? RowValue{std::monostate{}}
                             : projection_value(field.c_str(), table.columns()[i].type));
      }
      return values;
    });
  }

 private:
  std::string schema_;
  std::unique_ptr<pqxx::connection> connection_;
};

}  // namespace

std::unique_ptr<ServerStorage> open_postgres_server_storage(const std::string& dsn,
                                                            const std::string& pg_schema,
                                                            ServerStorageOptions options) {
  return std::make_unique<PostgresServerStorage>(dsn, pg_schema, std::move(options));
}

}  // namespace ssp::storage
