// The PostgreSQL push site and its two floors. The one-table floor uses the
// storage's client library (libpqxx 6) and server, one prepared INSERT, and
// one READ COMMITTED transaction per commit as a push transaction does (the
// rows floor is described at its class); durability is the server's for all
// (none sets synchronous_commit).
#include <pqxx/pqxx>
#include <stdexcept>

#include "push_rows.hpp"
#include "push_rows_floor.hpp"
#include "push_site.hpp"
#include "segments/postgres_site_schemas.hpp"
#include "ssp/postgres/postgres_server_storage.hpp"
#include "ssp/storage/physical_names.hpp"
#include "ssp/storage/storage_ddl.hpp"

namespace ssp::bench {
namespace {

class PostgresPushFloor final : public PushFloorDatabase {
 public:
  PostgresPushFloor(const std::string& dsn, const std::string& schema) : connection_(dsn) {
    pqxx::nontransaction(connection_).exec("SET search_path TO " + connection_.quote_name(schema));
    connection_.prepare("push_floor_insert",
                        "INSERT INTO push_rows(row_id, payload) VALUES ($1, $2)");
  }

  void insert_rows(std::span<const push::PushOperation> operations) override {
    pqxx::work transaction(connection_);
    for (const push::PushOperation& operation : operations) {
      const storage::Bytes& payload = operation.payload.value();
      transaction.exec_prepared("push_floor_insert", operation.row_id,
                                pqxx::binarystring(payload.data(), payload.size()));
    }
    transaction.commit();
  }

 private:
  pqxx::connection connection_;
};

// The rows floor: the floor schema holds the storage's own tables too (its
// DDL made them), written through libpqxx with prepared statements, each
// table's rows in one statement (unnest of text arrays, cast per column), so
// a commit of any size costs nine round trips: BEGIN, the counter, one
// statement per table, COMMIT.
class PostgresPushRowsFloor final : public PushRowsFloor {
 public:
  PostgresPushRowsFloor(const std::string& dsn, const std::string& schema,
                        const storage::CompiledTable& table)
      : connection_(dsn), table_(table) {
    pqxx::nontransaction(connection_).exec("SET search_path TO " + connection_.quote_name(schema));
    for (const auto& [name, text] : statements(table)) connection_.prepare(name, text);
  }

  void write_commit(const push::PushCommit& commit, const std::string& partition,
                    std::int64_t now_ms) override {
    const PushedCommit pushed = pushed_commit(table_, commit, "project");
    // Column-wise: one array per column of each table's rows.
    std::vector<Values> app_columns(table_column_count_);
    Values row_ids, scope_values, change_indexes, scopes, payloads;
    for (std::size_t i = 0; i < pushed.rows.size(); ++i) {
      const PushedRow& row = pushed.rows[i];
      std::size_t column = 0;
      app_columns[column++].push_back(partition);
      app_columns[column++].push_back(row.row_id);
      for (const storage::RowValue& value : row.projection) {
        app_columns[column++].push_back(text_of(value));
      }
      app_columns[column++].push_back("1");
      app_columns[column++].push_back(row.scopes_json);
      const std::string payload = bytea_hex(*row.payload);
      app_columns[column++].push_back(payload);
      app_columns[column++].push_back(std::nullopt);
      row_ids.push_back(row.row_id);
      scope_values.push_back(row.scope_value);
      change_indexes.push_back(std::to_string(i));
      scopes.push_back(row.scopes_json);
      payloads.push_back(payload);
    }
    Values app_row;
    for (const Values& column : app_columns) app_row.push_back(array_literal(column));
    Values change_scope_values(pushed.change_scope_values.begin(),
                               pushed.change_scope_values.end());

    pqxx::work transaction(connection_);
    const std::string seq =
        run(transaction, "next_commit_seq", {partition}).at(0).at(0).as<std::string>();
    run(transaction, "app_rows", app_row);
    run(transaction, "row_scopes",
        {partition, table_.name(), "project", array_literal(scope_values), array_literal(row_ids)});
    run(transaction, "commit",
        {partition, seq, commit.client_id, commit.client_commit_id, "bench-actor",
         std::to_string(now_ms)});
    run(transaction, "changes",
        {partition, seq, table_.name(), array_literal(change_indexes), array_literal(row_ids),
         array_literal(scopes), array_literal(payloads)});
    run(transaction, "change_scopes",
        {partition, table_.name(), "project", seq, array_literal(change_scope_values)});
    run(transaction, "result",
        {partition, commit.client_id, commit.client_commit_id,
         pushed.result_json_prefix + seq + pushed.result_json_suffix});
    transaction.commit();
  }

 private:
  using Values = std::vector<std::optional<std::string>>;

  // Name → SQL of every statement the floor prepares.
  static std::vector<std::pair<std::string, std::string>> statements(
      const storage::CompiledTable& table) {
    std::vector<std::string> types = {"text", "text"};
    for (const storage::ColumnLayout& column : table.layout()) {
      types.emplace_back(storage::projection_type(column.type, storage::SqlDialect::postgres));
    }
    types.insert(types.end(), {"bigint", "jsonb", "bytea", "bytea"});
    const std::vector<std::string> columns = storage::table_column_names(table);
    std::string names, arrays, casts;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const std::string n = std::to_string(i + 1);
      names += (i ? ", " : "") + storage::quote_identifier(columns[i]);
      arrays += (i ? ", $" : "$") + n + "::text[]";
      casts += (i ? ", c" : "c") + n + "::" + types[i];
    }
    std::string aliases;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      aliases += (i ? ", c" : "c") + std::to_string(i + 1);
    }
    return {
        {"next_commit_seq",
         "INSERT INTO sync_partitions (partition, max_commit_seq) VALUES ($1, 1) "
         "ON CONFLICT (partition) DO UPDATE SET max_commit_seq = "
         "sync_partitions.max_commit_seq + 1 RETURNING max_commit_seq"},
        {"app_rows", "INSERT INTO " + storage::quote_identifier(table.name()) + " (" + names +
                         ") SELECT " + casts + " FROM unnest(" + arrays + ") AS u(" + aliases +
                         ")"},
        {"row_scopes",
         "INSERT INTO sync_row_scopes (partition, tbl, var, value, row_id) "
         "SELECT $1, $2, $3, v, r FROM unnest($4::text[], $5::text[]) AS u(v, r)"},
        {"commit",
         "INSERT INTO sync_commits (partition, commit_seq, client_id, client_commit_id, "
         "actor_id, created_at_ms) VALUES ($1, $2, $3, $4, $5, $6)"},
        {"changes",
         "INSERT INTO sync_changes (partition, commit_seq, idx, tbl, row_id, op, row_version, "
         "scopes, payload) SELECT $1, $2::bigint, i::integer, $3, r, 1, 1, s::jsonb, p::bytea "
         "FROM unnest($4::text[], $5::text[], $6::text[], $7::text[]) AS u(i, r, s, p)"},
        {"change_scopes",
         "INSERT INTO sync_change_scopes (partition, tbl, var, value, commit_seq) "
         "SELECT $1, $2, $3, v, $4::bigint FROM unnest($5::text[]) AS u(v)"},
        {"result",
         "INSERT INTO sync_push_results (partition, client_id, client_commit_id, result) "
         "VALUES ($1, $2, $3, $4)"},
    };
  }

  static pqxx::result run(pqxx::work& transaction, const char* statement, const Values& values) {
    std::vector<const char*> pointers;
    for (const auto& value : values) pointers.push_back(value ? value->c_str() : nullptr);
    return transaction.exec_prepared(statement, pqxx::prepare::make_dynamic_params(pointers));
  }
  // A text[] literal: every element quoted, \ and " escaped, NULL bare.
  static std::string array_literal(const Values& values) {
    std::string out = "{";
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i) out += ',';
      if (!values[i]) {
        out += "NULL";
        continue;
      }
      out += '"';
      for (const char c : *values[i]) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      out += '"';
    }
    return out + "}";
  }
  // A projection value of the workload (text, flag or null) in text form.
  static std::optional<std::string> text_of(const storage::RowValue& value) {
    if (const auto* text = std::get_if<std::string>(&value)) return *text;
    if (const auto* flag = std::get_if<bool>(&value)) return *flag ? "true" : "false";
    return std::nullopt;
  }
  // BYTEA input in hex form.
  static std::string bytea_hex(const storage::Bytes& bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out = "\\x";
    out.reserve(2 + bytes.size() * 2);
    for (const std::uint8_t byte : bytes) {
      out += kDigits[byte >> 4];
      out += kDigits[byte & 0xf];
    }
    return out;
  }

  pqxx::connection connection_;
  const storage::CompiledTable& table_;
  std::size_t table_column_count_ = storage::table_column_names(table_).size();
};

class PostgresPushSite final : public PushSite {
 public:
  explicit PostgresPushSite(const std::string& dsn)
      : dsn_(dsn),
        schemas_(dsn, "push", "push_rows(row_id TEXT PRIMARY KEY, payload BYTEA NOT NULL)") {
    open_storage();  // creates the storage's schema and tables before any thread connects
    // The rows floor's tables, by the storage's own DDL, in the floor's schema.
    storage::open_postgres_server_storage(dsn_, schemas_.floor())->ensure_schema(schema());
  }

  std::unique_ptr<storage::ServerStorage> open_storage() override {
    auto storage = storage::open_postgres_server_storage(dsn_, schemas_.measured());
    storage->ensure_schema(schema());
    return storage;
  }

  PushStoragePlace storage_place() const override {
    return {BenchBackend::postgres, {}, dsn_, schemas_.measured()};
  }

  std::unique_ptr<PushFloorDatabase> open_floor() override {
    return std::make_unique<PostgresPushFloor>(dsn_, schemas_.floor());
  }

  std::unique_ptr<PushRowsFloor> open_rows_floor() override {
    return std::make_unique<PostgresPushRowsFloor>(dsn_, schemas_.floor(), *schema().find("tasks"));
  }

 private:
  std::string dsn_;
  PostgresSiteSchemas schemas_;
};

}  // namespace

std::unique_ptr<PushSite> make_postgres_push_site(const BenchConfig& config) {
  if (!config.pg_dsn) throw std::runtime_error(config.pg_skip_reason);
  return std::make_unique<PostgresPushSite>(*config.pg_dsn);
}

}  // namespace ssp::bench
