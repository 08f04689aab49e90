#include "sqlite_segment_schema.hpp"

#include <string>

namespace ssp::sqlite {
namespace {

// The 0.21 table, unchanged in 0.22 (upstream DDL).
constexpr const char* kSegmentsColumns =
    "segment_id TEXT PRIMARY KEY, partition TEXT NOT NULL, log_epoch TEXT NOT NULL, "
    "tbl TEXT NOT NULL, schema_version INTEGER NOT NULL, media_type TEXT NOT NULL, "
    "scope_digest TEXT NOT NULL, as_of_commit_seq INTEGER NOT NULL, row_count INTEGER NOT NULL, "
    "row_cursor TEXT, next_row_cursor TEXT, byte_length INTEGER NOT NULL, "
    "created_at_ms INTEGER NOT NULL, expires_at_ms INTEGER NOT NULL, bytes BLOB NOT NULL";

constexpr const char* kScopesColumns =
    "segment_id TEXT NOT NULL, scope_digest TEXT NOT NULL, PRIMARY KEY (segment_id, scope_digest)";

// How the store creates sync_segment_scopes: its rows are nothing but their
// primary key, so a table keyed by it (WITHOUT ROWID) holds them in one
// B-tree instead of a rowid table plus its key index, and a new segment
// writes one WAL frame less (bench/README.md change 8). Upstream never reads
// the table's rowid; a table that exists already is left as it is.
constexpr const char* kScopesStorage = " WITHOUT ROWID";

constexpr const char* kPublicationsColumns =
    "segment_id TEXT NOT NULL, pub_key TEXT NOT NULL, partition TEXT NOT NULL, "
    "log_epoch TEXT NOT NULL, tbl TEXT NOT NULL, schema_version INTEGER NOT NULL, "
    "media_type TEXT NOT NULL, scope_digest TEXT NOT NULL, as_of_commit_seq INTEGER NOT NULL, "
    "row_count INTEGER NOT NULL, row_cursor TEXT, next_row_cursor TEXT, "
    "byte_length INTEGER NOT NULL, created_at_ms INTEGER NOT NULL, "
    "expires_at_ms INTEGER NOT NULL, PRIMARY KEY (segment_id, pub_key)";

// find() looks publications up by key (D8). media_type is last because find
// checks it through the shared rule, not in SQL (stored values decode per D14).
// Legacy rows are reached from the digest through the scopes (see
// create_scopes_digest_index); the earlier index on the top-level context of
// sync_segments is dropped: find no longer uses it, and every put paid for it.
constexpr const char* kFindIndexes =
    "CREATE INDEX IF NOT EXISTS sync_segment_publications_find ON sync_segment_publications("
    "partition, log_epoch, tbl, scope_digest, schema_version, as_of_commit_seq, media_type) "
    "WHERE row_cursor IS NULL;"
    "DROP INDEX IF EXISTS sync_segments_find;";

constexpr const char* kBackfillScopes =
    "INSERT OR IGNORE INTO sync_segment_scopes(segment_id, scope_digest) "
    "SELECT segment_id, scope_digest FROM sync_segments";

bool table_exists(Connection& connection, const char* name) {
  Statement query = connection.prepare(
      "SELECT 1 AS present FROM main.sqlite_master WHERE type = 'table' AND name = ?");
  query.bind(1, std::string_view(name));
  return query.step();
}

bool segments_have_log_epoch(Connection& connection) {
  Statement columns = connection.prepare("PRAGMA main.table_info(sync_segments)");
  while (columns.step()) {
    if (columns.text("name") == "log_epoch") return true;
  }
  return false;
}

std::string create_table(const char* schema, const char* name, const char* columns,
                         const char* storage = "") {
  return std::string("CREATE TABLE IF NOT EXISTS ") + schema + name + "(" + columns + ")" +
         storage + ";";
}

// find() reaches legacy rows from the digest through this index: many scopes
// built at one commit share every other key field, so starting from those
// would scan them all (measured: bench/README.md).
std::string create_scopes_digest_index(const char* schema) {
  return std::string("CREATE INDEX IF NOT EXISTS ") + schema +
         "sync_segment_scopes_digest ON sync_segment_scopes(scope_digest, segment_id);";
}

}  // namespace

void upgrade_segment_tables(Connection& connection) {
  connection.exec(create_table("", "sync_segments", kSegmentsColumns));
  connection.exec(create_table("", "sync_segment_scopes", kScopesColumns, kScopesStorage));
  connection.exec(create_table("", "sync_segment_publications", kPublicationsColumns));
  if (!segments_have_log_epoch(connection)) {
    connection.exec("ALTER TABLE sync_segments ADD COLUMN log_epoch TEXT NOT NULL DEFAULT ''");
  }
  connection.exec(kBackfillScopes);
  connection.exec(kFindIndexes);
  connection.exec(create_scopes_digest_index(""));
}

void emulate_segment_upgrade(Connection& connection) {
  if (!table_exists(connection, "sync_segments")) {
    connection.exec(create_table("temp.", "sync_segments", kSegmentsColumns));
  } else if (!segments_have_log_epoch(connection)) {
    connection.exec(
        "CREATE TEMP VIEW sync_segments AS SELECT *, '' AS log_epoch FROM main.sync_segments");
  }
  connection.exec(create_table("temp.", "sync_segment_scopes", kScopesColumns));
  if (table_exists(connection, "sync_segment_scopes")) {
    connection.exec(
        "INSERT INTO temp.sync_segment_scopes SELECT segment_id, scope_digest "
        "FROM main.sync_segment_scopes");
  }
  connection.exec(kBackfillScopes);
  connection.exec(create_scopes_digest_index("temp."));
  if (!table_exists(connection, "sync_segment_publications")) {
    connection.exec(create_table("temp.", "sync_segment_publications", kPublicationsColumns));
  }
}

}  // namespace ssp::sqlite
