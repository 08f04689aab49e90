#include "ssp/storage/storage_ddl.hpp"

#include "ssp/storage/physical_names.hpp"

namespace ssp::storage {
namespace {

// §4.1 in one dialect-neutral text: {SEQ} integers that count or time things,
// {JSON} JSON text, {BLOB} bytes, {SMALL} the op code, {FLAG} the boolean with
// its default. Index names follow upstream where known; sync_row_scopes_by_row
// (0.22) is ours, upstream's name is unknown (storage.md §8 Q4).
constexpr const char* kCoreDdl[] = {
    "CREATE TABLE IF NOT EXISTS sync_partitions (partition TEXT PRIMARY KEY, "
    "max_commit_seq {SEQ} NOT NULL DEFAULT 0, horizon_seq {SEQ} NOT NULL DEFAULT 0)",
    "CREATE TABLE IF NOT EXISTS sync_partition_registry (partition TEXT PRIMARY KEY, "
    "log_epoch TEXT NOT NULL, epoch_required {FLAG}, last_authenticated_at_ms {SEQ} NOT NULL)",
    "CREATE TABLE IF NOT EXISTS sync_row_scopes (partition TEXT NOT NULL, tbl TEXT NOT NULL, "
    "var TEXT NOT NULL, value TEXT NOT NULL, row_id TEXT NOT NULL, "
    "PRIMARY KEY (partition, tbl, var, value, row_id))",
    "CREATE INDEX IF NOT EXISTS sync_row_scopes_by_row ON sync_row_scopes (partition, tbl, row_id)",
    "CREATE TABLE IF NOT EXISTS sync_commits (partition TEXT NOT NULL, commit_seq {SEQ} NOT NULL, "
    "client_id TEXT NOT NULL, client_commit_id TEXT NOT NULL, actor_id TEXT NOT NULL, "
    "created_at_ms {SEQ} NOT NULL, PRIMARY KEY (partition, commit_seq))",
    "CREATE INDEX IF NOT EXISTS sync_commits_by_time ON sync_commits (partition, created_at_ms)",
    "CREATE TABLE IF NOT EXISTS sync_changes (partition TEXT NOT NULL, commit_seq {SEQ} NOT NULL, "
    "idx INTEGER NOT NULL, tbl TEXT NOT NULL, row_id TEXT NOT NULL, op {SMALL} NOT NULL, "
    "row_version {SEQ}, scopes {JSON} NOT NULL, payload {BLOB}, "
    "PRIMARY KEY (partition, commit_seq, idx))",
    "CREATE INDEX IF NOT EXISTS sync_changes_by_table ON sync_changes "
    "(partition, commit_seq, tbl, idx)",
    "CREATE TABLE IF NOT EXISTS sync_change_scopes (partition TEXT NOT NULL, tbl TEXT NOT NULL, "
    "var TEXT NOT NULL, value TEXT NOT NULL, commit_seq {SEQ} NOT NULL, "
    "PRIMARY KEY (partition, tbl, var, value, commit_seq))",
    "CREATE TABLE IF NOT EXISTS sync_push_results (partition TEXT NOT NULL, "
    "client_id TEXT NOT NULL, client_commit_id TEXT NOT NULL, result {JSON} NOT NULL, "
    "PRIMARY KEY (partition, client_id, client_commit_id))",
    "CREATE TABLE IF NOT EXISTS sync_reactions (partition TEXT NOT NULL, "
    "idempotency_key TEXT NOT NULL, type TEXT NOT NULL, version INTEGER NOT NULL, "
    "payload {JSON} NOT NULL, source_client_id TEXT NOT NULL, "
    "source_client_commit_id TEXT NOT NULL, source_commit_seq {SEQ} NOT NULL, "
    "created_at_ms {SEQ} NOT NULL, available_at_ms {SEQ} NOT NULL, status TEXT NOT NULL "
    "CHECK (status IN ('pending','leased','completed','dead-letter')), "
    "attempts INTEGER NOT NULL DEFAULT 0, max_attempts INTEGER NOT NULL, lease_owner TEXT, "
    "lease_expires_at_ms {SEQ}, completed_at_ms {SEQ}, last_failure TEXT, "
    "PRIMARY KEY (partition, idempotency_key))",
    "CREATE INDEX IF NOT EXISTS sync_reactions_due ON sync_reactions "
    "(partition, status, available_at_ms)",
    "CREATE INDEX IF NOT EXISTS sync_reactions_lease ON sync_reactions "
    "(partition, status, lease_expires_at_ms)",
    "CREATE INDEX IF NOT EXISTS sync_reactions_completed ON sync_reactions "
    "(partition, status, completed_at_ms)",
    "CREATE INDEX IF NOT EXISTS sync_reactions_dead_letter ON sync_reactions "
    "(partition, status, created_at_ms)",
    "CREATE TABLE IF NOT EXISTS sync_clients (partition TEXT NOT NULL, client_id TEXT NOT NULL, "
    "actor_id TEXT NOT NULL, wire_version INTEGER NOT NULL DEFAULT 1, cursor {SEQ} NOT NULL, "
    "subscriptions {JSON} NOT NULL, updated_at_ms {SEQ} NOT NULL, "
    "PRIMARY KEY (partition, client_id))",
    "CREATE TABLE IF NOT EXISTS sync_blob_refs (partition TEXT NOT NULL, tbl TEXT NOT NULL, "
    "row_id TEXT NOT NULL, blob_id TEXT NOT NULL, PRIMARY KEY (partition, tbl, row_id, blob_id))",
    "CREATE INDEX IF NOT EXISTS sync_blob_refs_by_blob ON sync_blob_refs (partition, blob_id)",
    "CREATE TABLE IF NOT EXISTS sync_tombstones (partition TEXT NOT NULL, tbl TEXT NOT NULL, "
    "row_id TEXT NOT NULL, commit_seq {SEQ} NOT NULL, PRIMARY KEY (partition, tbl, row_id))",
};

std::string_view seq_type(SqlDialect d) { return d == SqlDialect::sqlite ? "INTEGER" : "BIGINT"; }
std::string_view json_type(SqlDialect d) { return d == SqlDialect::sqlite ? "TEXT" : "JSONB"; }
std::string_view blob_type(SqlDialect d) { return d == SqlDialect::sqlite ? "BLOB" : "BYTEA"; }

std::string in_dialect(std::string text, SqlDialect dialect) {
  const std::pair<std::string_view, std::string_view> tokens[] = {
      {"{SEQ}", seq_type(dialect)},
      {"{JSON}", json_type(dialect)},
      {"{BLOB}", blob_type(dialect)},
      {"{SMALL}", dialect == SqlDialect::sqlite ? "INTEGER" : "SMALLINT"},
      {"{FLAG}", dialect == SqlDialect::sqlite ? "INTEGER NOT NULL DEFAULT 0"
                                               : "BOOLEAN NOT NULL DEFAULT FALSE"},
  };
  for (const auto& [token, replacement] : tokens) {
    for (std::size_t at = text.find(token); at != std::string::npos; at = text.find(token, at)) {
      text.replace(at, token.size(), replacement);
      at += replacement.size();
    }
  }
  return text;
}

}  // namespace

std::vector<std::string> core_ddl(SqlDialect dialect) {
  std::vector<std::string> statements;
  for (const char* statement : kCoreDdl) statements.push_back(in_dialect(statement, dialect));
  return statements;
}

std::string marker_ddl(SqlDialect dialect) {
  return in_dialect(
      "CREATE TABLE IF NOT EXISTS sync_schema_meta (id INTEGER PRIMARY KEY CHECK (id = 1), "
      "schema_version {SEQ} NOT NULL, layouts TEXT NOT NULL DEFAULT '{}')",
      dialect);
}

std::string wire_version_upgrade_ddl(SqlDialect dialect) {
  return dialect == SqlDialect::sqlite
             ? "ALTER TABLE sync_clients ADD COLUMN wire_version INTEGER NOT NULL DEFAULT 1"
             : "ALTER TABLE sync_clients ADD COLUMN IF NOT EXISTS wire_version INTEGER NOT NULL "
               "DEFAULT 1";
}

std::vector<std::string> table_column_names(const CompiledTable& table) {
  std::vector<std::string> names = {std::string(kPartitionColumn), std::string(kRowIdColumn)};
  if (table.materialized) {
    for (const Column& column : table.columns()) names.push_back(column.name);
  }
  for (std::string_view internal :
       {kServerVersionColumn, kScopesColumn, kPayloadColumn, kColumnVersionsColumn}) {
    names.emplace_back(internal);
  }
  return names;
}

std::string_view projection_type(ColumnType type, SqlDialect dialect) {
  const bool sqlite = dialect == SqlDialect::sqlite;
  switch (type) {
    case ColumnType::string:
    case ColumnType::blob_ref:
      return "TEXT";
    case ColumnType::json:
      return json_type(dialect);
    case ColumnType::integer:
      return sqlite ? "INTEGER" : "BIGINT";
    case ColumnType::floating:
      return sqlite ? "REAL" : "DOUBLE PRECISION";
    case ColumnType::boolean:
      return sqlite ? "INTEGER" : "BOOLEAN";
    case ColumnType::bytes:
    case ColumnType::crdt:
      return blob_type(dialect);
  }
  return "TEXT";
}

std::string create_table_ddl(const CompiledTable& table, SqlDialect dialect) {
  std::string sql = "CREATE TABLE IF NOT EXISTS " + quote_identifier(table.name()) + " (" +
                    quote_identifier(kPartitionColumn) + " TEXT NOT NULL, " +
                    quote_identifier(kRowIdColumn) + " TEXT NOT NULL, ";
  if (table.materialized) {
    for (const Column& column : table.columns()) {
      sql += quote_identifier(column.name) + " " +
             std::string(projection_type(column.type, dialect)) +
             (column.nullable ? ", " : " NOT NULL, ");
    }
  }
  sql += quote_identifier(kServerVersionColumn) + " " + std::string(seq_type(dialect)) +
         " NOT NULL, " + quote_identifier(kScopesColumn) + " " + std::string(json_type(dialect)) +
         " NOT NULL, " + quote_identifier(kPayloadColumn) + " " + std::string(blob_type(dialect)) +
         " NOT NULL, " + quote_identifier(kColumnVersionsColumn) + " " +
         std::string(blob_type(dialect)) + ", PRIMARY KEY (" + quote_identifier(kPartitionColumn) +
         ", " + quote_identifier(kRowIdColumn) + "))";
  return sql;
}

std::string add_projection_column_ddl(const std::string& table, const Column& column,
                                      SqlDialect dialect) {
  return "ALTER TABLE " + quote_identifier(table) + " ADD COLUMN " + quote_identifier(column.name) +
         " " + std::string(projection_type(column.type, dialect));
}

std::string add_column_versions_ddl(const std::string& table, SqlDialect dialect) {
  return "ALTER TABLE " + quote_identifier(table) + " ADD COLUMN " +
         quote_identifier(kColumnVersionsColumn) + " " + std::string(blob_type(dialect));
}

std::string create_index_ddl(const std::string& table, const Index& index) {
  std::string sql = std::string("CREATE ") + (index.unique ? "UNIQUE " : "") +
                    "INDEX IF NOT EXISTS " + quote_identifier(physical_index_name(index.name)) +
                    " ON " + quote_identifier(table) + " (" + quote_identifier(kPartitionColumn);
  for (const std::string& column : index.columns) sql += ", " + quote_identifier(column);
  return sql + ")";
}

std::string drop_index_ddl(const std::string& physical_name) {
  return "DROP INDEX IF EXISTS " + quote_identifier(physical_name);
}

std::string drop_table_ddl(const std::string& table) {
  return "DROP TABLE IF EXISTS " + quote_identifier(table);
}

}  // namespace ssp::storage
