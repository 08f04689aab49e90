"""The SQLite DDL of upstream's server storage (design notes storage.md §2.1, §4.1, §4.3):
the core ``sync_*`` tables and an application table with its storage-internal columns. The
harness reads these tables directly, so names and columns are upstream's."""

INTERNAL_COLUMNS = ("_sync_partition", "_sync_row_id", "_sync_server_version", "_sync_scopes",
                    "_sync_payload", "_sync_column_versions")

CORE_DDL = [
    'CREATE TABLE IF NOT EXISTS sync_partitions (partition TEXT PRIMARY KEY, '
    'max_commit_seq INTEGER NOT NULL DEFAULT 0, horizon_seq INTEGER NOT NULL DEFAULT 0)',
    'CREATE TABLE IF NOT EXISTS sync_partition_registry (partition TEXT PRIMARY KEY, log_epoch TEXT NOT NULL, '
    'epoch_required INTEGER NOT NULL DEFAULT 0, last_authenticated_at_ms INTEGER NOT NULL)',
    'CREATE TABLE IF NOT EXISTS sync_row_scopes (partition TEXT NOT NULL, tbl TEXT NOT NULL, var TEXT NOT NULL, '
    'value TEXT NOT NULL, row_id TEXT NOT NULL, PRIMARY KEY (partition, tbl, var, value, row_id))',
    'CREATE INDEX IF NOT EXISTS sync_row_scopes_by_row ON sync_row_scopes (partition, tbl, row_id)',
    'CREATE TABLE IF NOT EXISTS sync_commits (partition TEXT NOT NULL, commit_seq INTEGER NOT NULL, '
    'client_id TEXT NOT NULL, client_commit_id TEXT NOT NULL, actor_id TEXT NOT NULL, '
    'created_at_ms INTEGER NOT NULL, PRIMARY KEY (partition, commit_seq))',
    'CREATE INDEX IF NOT EXISTS sync_commits_by_time ON sync_commits (partition, created_at_ms)',
    'CREATE TABLE IF NOT EXISTS sync_changes (partition TEXT NOT NULL, commit_seq INTEGER NOT NULL, '
    'idx INTEGER NOT NULL, tbl TEXT NOT NULL, row_id TEXT NOT NULL, op INTEGER NOT NULL, row_version INTEGER, '
    'scopes TEXT NOT NULL, payload BLOB, PRIMARY KEY (partition, commit_seq, idx))',
    'CREATE INDEX IF NOT EXISTS sync_changes_by_table ON sync_changes (partition, commit_seq, tbl, idx)',
    'CREATE TABLE IF NOT EXISTS sync_change_scopes (partition TEXT NOT NULL, tbl TEXT NOT NULL, var TEXT NOT NULL, '
    'value TEXT NOT NULL, commit_seq INTEGER NOT NULL, PRIMARY KEY (partition, tbl, var, value, commit_seq))',
    'CREATE TABLE IF NOT EXISTS sync_push_results (partition TEXT NOT NULL, client_id TEXT NOT NULL, '
    'client_commit_id TEXT NOT NULL, result TEXT NOT NULL, PRIMARY KEY (partition, client_id, client_commit_id))',
    'CREATE TABLE IF NOT EXISTS sync_reactions (partition TEXT NOT NULL, idempotency_key TEXT NOT NULL, '
    'type TEXT NOT NULL, version INTEGER NOT NULL, payload TEXT NOT NULL, source_client_id TEXT NOT NULL, '
    'source_client_commit_id TEXT NOT NULL, source_commit_seq INTEGER NOT NULL, created_at_ms INTEGER NOT NULL, '
    'available_at_ms INTEGER NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, '
    'max_attempts INTEGER NOT NULL, lease_owner TEXT, lease_expires_at_ms INTEGER, completed_at_ms INTEGER, '
    'last_failure TEXT, PRIMARY KEY (partition, idempotency_key), '
    "CHECK (status IN ('pending','leased','completed','dead-letter')))",
    'CREATE INDEX IF NOT EXISTS sync_reactions_due ON sync_reactions (partition, status, available_at_ms)',
    'CREATE INDEX IF NOT EXISTS sync_reactions_lease ON sync_reactions (partition, status, lease_expires_at_ms)',
    'CREATE INDEX IF NOT EXISTS sync_reactions_completed ON sync_reactions (partition, status, completed_at_ms)',
    'CREATE INDEX IF NOT EXISTS sync_reactions_dead_letter ON sync_reactions (partition, status, created_at_ms)',
    'CREATE TABLE IF NOT EXISTS sync_clients (partition TEXT NOT NULL, client_id TEXT NOT NULL, '
    'actor_id TEXT NOT NULL, wire_version INTEGER NOT NULL DEFAULT 1, cursor INTEGER NOT NULL, '
    'subscriptions TEXT NOT NULL, updated_at_ms INTEGER NOT NULL, PRIMARY KEY (partition, client_id))',
    'CREATE TABLE IF NOT EXISTS sync_blob_refs (partition TEXT NOT NULL, tbl TEXT NOT NULL, row_id TEXT NOT NULL, '
    'blob_id TEXT NOT NULL, PRIMARY KEY (partition, tbl, row_id, blob_id))',
    'CREATE INDEX IF NOT EXISTS sync_blob_refs_by_blob ON sync_blob_refs (partition, blob_id)',
    'CREATE TABLE IF NOT EXISTS sync_tombstones (partition TEXT NOT NULL, tbl TEXT NOT NULL, row_id TEXT NOT NULL, '
    'commit_seq INTEGER NOT NULL, PRIMARY KEY (partition, tbl, row_id))',
]

MARKER_DDL = ('CREATE TABLE IF NOT EXISTS sync_schema_meta (id INTEGER PRIMARY KEY CHECK (id = 1), '
              "schema_version INTEGER NOT NULL, layouts TEXT NOT NULL DEFAULT '{}')")

SQL_TYPES = {"string": "TEXT", "json": "TEXT", "blob_ref": "TEXT", "integer": "INTEGER", "float": "REAL",
             "boolean": "INTEGER", "bytes": "BLOB", "crdt": "BLOB"}


def ident(name: str) -> str:
    """A double-quoted SQL identifier, ``"`` doubled."""
    return '"' + name.replace('"', '""') + '"'


def create_table(table) -> str:
    defs = [ident("_sync_partition") + " TEXT NOT NULL", ident("_sync_row_id") + " TEXT NOT NULL"]
    if table.materialize:
        for column in table.columns:
            defs.append(ident(column.name) + " " + SQL_TYPES[column.type] + ("" if column.nullable else " NOT NULL"))
    defs += [ident("_sync_server_version") + " INTEGER NOT NULL", ident("_sync_scopes") + " TEXT NOT NULL",
             ident("_sync_payload") + " BLOB NOT NULL", ident("_sync_column_versions") + " BLOB"]
    return "CREATE TABLE IF NOT EXISTS %s (%s, PRIMARY KEY (%s, %s))" % (
        ident(table.name), ", ".join(defs), ident("_sync_partition"), ident("_sync_row_id"))


def fnv1a64(data: bytes) -> int:
    value = 0xcbf29ce484222325
    for byte in data:
        value ^= byte
        value = (value * 0x100000001b3) % (1 << 64)
    return value


def physical_index_name(declared: str) -> str:
    """``sync_ix_<name>``, or the FNV-1a-64 form when that exceeds 63 UTF-8 bytes."""
    name = "sync_ix_" + declared
    if len(name.encode("utf-8")) <= 63:
        return name
    return "sync_ix_%016x" % fnv1a64(declared.encode("utf-8"))


def create_index(table, index) -> str:
    name, columns, unique = index
    return "CREATE %sINDEX IF NOT EXISTS %s ON %s (%s)" % (
        "UNIQUE " if unique else "", ident(physical_index_name(name)), ident(table.name),
        ", ".join([ident("_sync_partition")] + [ident(c) for c in columns]))
