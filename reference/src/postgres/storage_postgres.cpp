// The server storage on PostgreSQL. Only SQL lives here: the startup sequence,
// the memo and the row checks are ServerStorageBase and run_schema_startup.
// Every parameter travels as text; PostgreSQL types it from its column.
#include <charconv>
#include <cmath>
#include <optional>
#include <pqxx/pqxx>

#include "../sql/idle_connections.hpp"
#include "core/storage/core_tables_seen.hpp"
#include "core/storage/storage_server_base.hpp"
#include "array_literal.hpp"
#include "postgres_push_session.hpp"
#include "ssp/errors/errors.hpp"
#include "ssp/postgres/postgres_server_storage.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/storage_ddl.hpp"
#include "ssp/storage/storage_errors.hpp"
#include "ssp/storage/stored_scopes.hpp"
#include "ssp/storage/schema_startup.hpp"
#include "storage_postgres_sql.hpp"
#include "storage_postgres_values.hpp"

namespace ssp::storage {
namespace {

// First key of the migration advisory lock ('SSPM'); the second is
// hashtext(schema name). A hash collision only serializes two schemas.
constexpr int kMigrationLockClass = 0x5353504d;

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
           txn_.exec_params(
               // What information_schema.columns lists for the table (its own
               // conditions), from the catalogs it is a view of: planning the view
               // took about 2 ms per call, ten times its run, and every startup
               // asks once per table.
               "SELECT a.attname FROM pg_attribute a "
               "JOIN pg_class c ON c.oid = a.attrelid "
               "JOIN pg_namespace n ON n.oid = c.relnamespace "
               "WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'v', 'f', 'p') "
               "AND NOT pg_is_other_temp_schema(n.oid) AND a.attnum > 0 AND NOT a.attisdropped "
               "AND (pg_has_role(c.relowner, 'USAGE') OR "
               "has_column_privilege(c.oid, a.attnum, 'SELECT, INSERT, UPDATE, REFERENCES')) "
               "ORDER BY a.attnum",
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

// The sync_changes columns tbl, row_id, op, row_version, scopes (as text),
// payload of `row`, from column `first` on.
Change change_at(const pqxx::row& row, int first) {
  Change change;
  change.table = row[first].c_str();
  change.row_id = row[first + 1].c_str();
  change.op = row[first + 2].as<int>() == 2 ? ChangeOp::remove : ChangeOp::upsert;
  if (!row[first + 3].is_null()) change.row_version = row[first + 3].as<std::int64_t>();
  change.scopes = parse_scopes_json(row[first + 4].c_str(), change.table);
  if (!row[first + 5].is_null()) change.payload = bytes_of(row[first + 5]);
  return change;
}

class PostgresServerStorage final : public ServerStorageBase {
 public:
  PostgresServerStorage(const std::string& dsn, std::string schema, ServerStorageOptions options)
      : ServerStorageBase(std::move(options)), dsn_(dsn), schema_(std::move(schema)) {
    guarded([&] {
      writer_ = open_connection(dsn_, schema_, this->options().lock_wait_ms);
      return 0;
    });
  }

 protected:
  std::unique_ptr<SchemaSession> begin_schema_session() override {
    return guarded([&] { return std::make_unique<PostgresSchemaSession>(*writer_, schema_); });
  }

  void write_row(const CompiledTable& table, const std::string& partition, const StoredRow& row,
                 const Row& values) override {
    guarded([&] {
      pqxx::work txn(*writer_);
      run(txn, app_row_upsert(table, partition, row, values));
      // A storage-level write holds no partition lock: whether the row
      // existed is not known, so its entries are always replaced.
      for (const auto& statement :
           row_scopes_replacement(table, partition, row, /*row_was_absent=*/false)) {
        run(txn, statement);
      }
      txn.commit();
      return 0;
    });
  }

  std::optional<StoredRow> read_row(const CompiledTable& table, const std::string& partition,
                                    const std::string& row_id) override {
    return guarded([&] {
      pqxx::work txn(reader());
      return read_row_on(txn, table, partition, row_id);
    });
  }

  std::optional<Row> read_projection_row(const CompiledTable& table, const std::string& partition,
                                         const std::string& row_id) override {
    return guarded([&]() -> std::optional<Row> {
      pqxx::work txn(reader());
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

  std::optional<std::string> read_push_result(const std::string& partition,
                                              const std::string& client_id,
                                              const std::string& client_commit_id) override {
    return guarded([&]() -> std::optional<std::string> {
      // One statement: autocommit is its snapshot, and saves BEGIN and
      // COMMIT on the optimistic lookup every push starts with.
      pqxx::nontransaction txn(reader());
      if (!core_tables_exist(txn)) return std::nullopt;
      return read_push_result_on(txn, partition, client_id, client_commit_id);
    });
  }

  std::int64_t read_max_commit_seq(const std::string& partition) override {
    return guarded([&] {
      pqxx::work txn(reader());
      return max_commit_seq_on(txn, partition);
    });
  }

  AuthoritativeRead read_authoritative(const CompiledTable& table, const std::string& partition,
                                       const std::vector<std::string>& row_ids) override {
    return guarded([&] {
      pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> txn(reader());
      AuthoritativeRead read;
      for (const auto& row_id : row_ids) {
        if (auto row = read_row_on(txn, table, partition, row_id)) read.rows.push_back(*row);
      }
      read.max_commit_seq = max_commit_seq_on(txn, partition);
      txn.commit();
      return read;
    });
  }

  std::vector<Commit> read_commits(const std::string& partition, std::int64_t after_seq,
                                   std::int64_t limit) override {
    return guarded([&] {
      // One snapshot for both statements.
      pqxx::transaction<pqxx::repeatable_read, pqxx::read_only>
          txn(reader());
      std::vector<Commit> commits;
      if (!core_tables_exist(txn)) return commits;
      for (const auto& row : txn.exec_params(
               "SELECT commit_seq, client_id, client_commit_id, actor_id, created_at_ms "
               "FROM sync_commits WHERE partition = $1 AND commit_seq > $2 "
               "ORDER BY commit_seq LIMIT $3",
               partition, after_seq, limit)) {
        Commit commit;
        commit.commit_seq = row[0].as<std::int64_t>();
        commit.entry.client_id = row[1].c_str();
        commit.entry.client_commit_id = row[2].c_str();
        commit.entry.actor_id = row[3].c_str();
        commit.entry.created_at_ms = row[4].as<std::int64_t>();
        commits.push_back(std::move(commit));
      }
      if (commits.empty()) return commits;
      std::size_t at = 0;
      for (const auto& row : txn.exec_params(
               "SELECT commit_seq, tbl, row_id, op, row_version, scopes::text, payload "
               "FROM sync_changes WHERE partition = $1 AND commit_seq >= $2 AND commit_seq <= $3 "
               "ORDER BY commit_seq, idx",
               partition, commits.front().commit_seq, commits.back().commit_seq)) {
        const auto seq = row[0].as<std::int64_t>();
        while (at < commits.size() && commits[at].commit_seq < seq) ++at;
        if (at == commits.size() || commits[at].commit_seq != seq) continue;
        commits[at].entry.changes.push_back(change_at(row, 1));
      }
      txn.commit();
      return commits;
    });
  }

  std::vector<WindowCandidate> read_window_candidates(const std::string& partition,
                                                      const std::string& table,
                                                      const WindowIndexKey& key,
                                                      std::int64_t after_seq,
                                                      std::int64_t through_seq,
                                                      std::int64_t batch) override {
    return guarded([&] {
      pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> txn(reader());
      std::vector<WindowCandidate> candidates;
      if (!core_tables_exist(txn)) return candidates;
      // The candidates through the index, then each one's commit row and its
      // changes of the table. LEFT JOINs: a candidate whose commit is gone
      // still counts, so that a short page means the candidates ran out.
      for (const auto& row : txn.exec_params(
               "SELECT c.commit_seq, m.actor_id, m.created_at_ms, ch.tbl, ch.row_id, ch.op, "
               "ch.row_version, ch.scopes::text, ch.payload FROM (SELECT DISTINCT commit_seq "
               "FROM sync_change_scopes WHERE partition = $1 AND tbl = $2 AND var = $3 AND "
               "value = ANY($4::text[]) AND commit_seq > $5 AND commit_seq <= $6 "
               "ORDER BY commit_seq LIMIT $7) c "
               "LEFT JOIN sync_commits m ON m.partition = $1 AND m.commit_seq = c.commit_seq "
               "LEFT JOIN sync_changes ch ON ch.partition = $1 AND ch.commit_seq = c.commit_seq "
               "AND ch.tbl = $2 ORDER BY c.commit_seq, ch.idx",
               partition, table, key.variable, postgres::text_array(key.values), after_seq,
               through_seq, batch)) {
        const auto seq = row[0].as<std::int64_t>();
        add_window_row(
            candidates, seq,
            [&]() -> std::optional<WindowCommit> {
              if (row[1].is_null()) return std::nullopt;
              return WindowCommit{seq, row[2].as<std::int64_t>(), row[1].c_str(), {}};
            },
            [&]() -> std::optional<Change> {
              if (row[3].is_null()) return std::nullopt;
              return change_at(row, 3);
            });
      }
      txn.commit();
      return candidates;
    });
  }

  PartitionEntry write_registry(const PartitionEntry& entry, RegistryWrite write) override {
    return guarded([&] {
      pqxx::work txn(*writer_);
      if (write == RegistryWrite::rotation) {
        txn.exec_params("DELETE FROM sync_clients WHERE partition = $1", entry.partition);
      }
      const pqxx::result rows = txn.exec_params(
          "INSERT INTO sync_partition_registry (" + std::string(kRegistryColumns) +
              ") VALUES ($1, $2, $3, $4) ON CONFLICT (partition) DO UPDATE SET " +
              std::string(registry_conflict_update(write)) + " RETURNING " +
              std::string(kRegistryColumns),
          entry.partition, entry.log_epoch, entry.epoch_required, entry.last_authenticated_at_ms);
      PartitionEntry stored = registry_entry(rows[0]);
      txn.commit();
      return stored;
    });
  }

  std::optional<std::string> read_partition_epoch(const std::string& partition) override {
    return guarded([&]() -> std::optional<std::string> {
      pqxx::work txn(reader());
      if (!core_tables_exist(txn)) return std::nullopt;
      const pqxx::result rows = txn.exec_params(
          "SELECT log_epoch FROM sync_partition_registry WHERE partition = $1", partition);
      if (rows.empty()) return std::nullopt;
      return std::string(rows[0][0].c_str());
    });
  }

  std::vector<PartitionEntry> read_partition_registry() override {
    return guarded([&] {
      pqxx::work txn(reader());
      std::vector<PartitionEntry> entries;
      if (!core_tables_exist(txn)) return entries;
      for (const auto& row : txn.exec("SELECT " + std::string(kRegistryColumns) +
                                      " FROM sync_partition_registry ORDER BY partition")) {
        entries.push_back(registry_entry(row));
      }
      return entries;
    });
  }

  std::unique_ptr<PushSession> open_push_session() override {
    return guarded([&] {
      return open_postgres_push_session(idle_push_, dsn_, schema_, options().lock_wait_ms);
    });
  }

 private:
  static PartitionEntry registry_entry(const pqxx::row& row) {
    return PartitionEntry{row[0].c_str(), row[1].c_str(), row[2].as<bool>(),
                          row[3].as<std::int64_t>()};
  }

  // The partition's max commit seq in `txn`'s snapshot, 0 before any commit.
  std::int64_t max_commit_seq_on(pqxx::transaction_base& txn, const std::string& partition) {
    if (!core_tables_exist(txn)) return 0;
    const pqxx::result rows = txn.exec_params(
        "SELECT max_commit_seq FROM sync_partitions WHERE partition = $1", partition);
    return rows.empty() ? 0 : rows[0][0].as<std::int64_t>();
  }

  bool core_tables_exist(pqxx::transaction_base& txn) {
    return core_tables_.exist([&] {
      return !txn.exec("SELECT 1 FROM pg_class WHERE oid = to_regclass('sync_push_results')")
                  .empty();
    });
  }

  // The reader's connection, opened by the first read: a storage that only
  // starts up (a migration, a same-version check) never costs the server a
  // backend for it. Under read_mutex_, as every read (ServerStorageBase).
  pqxx::connection& reader() {
    if (!reader_) reader_ = open_connection(dsn_, schema_, options().lock_wait_ms);
    return *reader_;
  }

  std::string dsn_;
  std::string schema_;
  std::unique_ptr<pqxx::connection> writer_;
  std::unique_ptr<pqxx::connection> reader_;  // see reader()
  CoreTablesSeen core_tables_;  // under read_mutex_, as reader_
  std::shared_ptr<IdlePushConnections> idle_push_ =
      std::make_shared<IdlePushConnections>(sql::kMaxIdlePushConnections);
};

}  // namespace

std::unique_ptr<ServerStorage> open_postgres_server_storage(const std::string& dsn,
                                                            const std::string& pg_schema,
                                                            ServerStorageOptions options) {
  return std::make_unique<PostgresServerStorage>(dsn, pg_schema, std::move(options));
}

}  // namespace ssp::storage
