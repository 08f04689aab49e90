"""``ensure_schema`` on SQLite (docs/storage.md "Startup"; design notes storage.md §2–§3): the
marker, the same-version refusals, and the migration subset, all in one transaction taken
before anything is read (decision Q6), so a refused database is left exactly as it was.

Works on an open connection that already holds ``BEGIN IMMEDIATE``; the caller commits or
rolls back (preview always rolls back).
"""

import json

from .jsontext import quote, utf16_key
from .row_codec import Column, RowDecodeError, decode_row, encode_row
from .storage_ddl import CORE_DDL, INTERNAL_COLUMNS, MARKER_DDL, SQL_TYPES, create_index, create_table, ident
from .storage_errors import SchemaRefusal
from .schema import layouts_json

PAGE = 500


def _columns(conn, table):
    return [row[1] for row in conn.execute("PRAGMA table_info(%s)" % ident(table))]


def _layouts(text):
    """The stored layouts as a dict of table → value (not validated beyond the top level)."""
    if text is None or text == "":
        return {}
    try:
        pairs = json.loads(text, object_pairs_hook=_Obj)
    except (ValueError, RecursionError) as error:
        raise SchemaRefusal("layouts_unreadable", "stored schema layouts are unreadable: not JSON (%s)" % error) from None
    if not isinstance(pairs, _Obj):
        raise SchemaRefusal("layouts_unreadable", "stored schema layouts are unreadable: the stored text is not a JSON object")
    result = {}
    for key, value in pairs:
        result[key] = _plain(value)
    return result


class _Obj(list):
    """A JSON object as its key/value pairs (keeps the stored key order)."""


def _plain(value):
    """Objects back to dicts, recursively."""
    if isinstance(value, _Obj):
        return {k: _plain(v) for k, v in value}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def _stored_columns(value):
    """A stored table value's column list; a non-array has none (decision Q10)."""
    return value if isinstance(value, list) else []


def _column_matches(stored, configured):
    return (isinstance(stored, dict) and isinstance(stored.get("name"), str) and stored.get("name") == configured.name
            and stored.get("type") == configured.type and isinstance(stored.get("nullable"), bool)
            and stored.get("nullable") == configured.nullable)


def compare_layouts(stored, schema):
    """The first mismatch as design notes storage.md §2.4 reports it: (table, column) or
    (table, None) for an extra stored table; None when they agree."""
    for table in schema.tables:
        s = _stored_columns(stored.get(table.name))
        for i in range(max(len(table.columns), len(s))):
            configured = table.columns[i] if i < len(table.columns) else None
            stored_column = s[i] if i < len(s) else None
            if configured is not None and stored_column is not None and _column_matches(stored_column, configured):
                continue
            if configured is not None:
                name = configured.name
            elif isinstance(stored_column, dict) and isinstance(stored_column.get("name"), str):
                name = stored_column["name"]
            else:
                name = ""
            return table.name, name
    configured_names = {table.name for table in schema.tables}
    for name in stored:
        if name not in configured_names:
            return name, None
    return None


def required_physical(table):
    required = list(INTERNAL_COLUMNS)
    if table.materialize:
        required += [c.name for c in table.columns]
    return required


def run_startup(conn, schema, compatibility="0.22", hook=None):
    """Run the startup sequence on ``conn`` (inside BEGIN IMMEDIATE). Returns the report."""
    for statement in CORE_DDL:
        conn.execute(statement)
    client_columns = _columns(conn, "sync_clients")
    if "wire_version" not in client_columns:
        conn.execute("ALTER TABLE sync_clients ADD COLUMN wire_version INTEGER NOT NULL DEFAULT 1")
    conn.execute(MARKER_DDL)
    marker = conn.execute("SELECT schema_version, layouts FROM sync_schema_meta WHERE id = 1").fetchone()
    configured = schema.version
    stored_version = None if marker is None else marker[0]
    report = {"action": "verified", "configuredVersion": configured, "storedVersion": stored_version,
              "retiredTables": [], "statements": [], "rewrittenRows": 0}
    if stored_version is not None and stored_version > configured:
        raise SchemaRefusal("stored_newer", "stored schema version %d is newer than the configured schema (%d) — "
                            "refusing to run an older server against a migrated database" % (stored_version, configured))
    if stored_version is not None and stored_version == configured:
        if compatibility != "0.21":
            _verify_same_version(conn, schema, marker[1])
        return report
    _migrate(conn, schema, None if marker is None else marker[1], report)
    report["action"] = "migrated"
    return report


def _verify_same_version(conn, schema, stored_text):
    stored = _layouts(stored_text)
    mismatch = compare_layouts(stored, schema)
    if mismatch is not None:
        table, column = mismatch
        where = "table %s" % quote(table) + ("" if column is None else " column %s" % quote(column))
        raise SchemaRefusal("layouts_disagree",
                            "stored schema layouts disagree with the configured schema at version %d (%s) — "
                            "refusing to serve a database whose stored rows the running code cannot decode"
                            % (schema.version, where), table, column)
    for table in schema.tables:
        present = set(_columns(conn, table.name))
        for name in required_physical(table):
            if name not in present:
                raise SchemaRefusal("physical_mismatch",
                                    "physical tables disagree with the configured schema at version %d (table %s "
                                    "column %s is missing) — refusing to serve a database the running code cannot write"
                                    % (schema.version, quote(table.name), quote(name)), table.name, name)


def _describe(stored_column):
    return json.dumps(stored_column, ensure_ascii=False, separators=(",", ":"))


def _migrate(conn, schema, stored_text, report):
    stored = _layouts(stored_text) if stored_text is not None else {}
    plans = []
    # Plan every table first: every refusal comes before the first change.
    for table in schema.tables:
        physical = _columns(conn, table.name)
        existed = bool(physical)
        old = None
        plan = {"table": table, "physical": physical, "existed": existed, "migrate": False, "backfill": False}
        if table.name in stored and existed:
            value = stored[table.name]
            if not isinstance(value, list):
                raise SchemaRefusal("layouts_unreadable", "stored schema layouts are unreadable: table %s is not an array"
                                    % quote(table.name), table.name)
            old = value
            if len(old) > len(table.columns):
                raise SchemaRefusal("not_append_only", "table %s: the schema removed columns — only appending nullable "
                                    "columns is supported; indexes may be created, replaced, or dropped independently"
                                    % quote(table.name), table.name)
            for i, stored_column in enumerate(old):
                if not _column_matches(stored_column, table.columns[i]):
                    c = table.columns[i]
                    new = '{"name":%s,"type":%s,"nullable":%s}' % (quote(c.name), quote(c.type),
                                                                  "true" if c.nullable else "false")
                    raise SchemaRefusal("not_append_only", "table %s: column %d changed (%s → %s) — only appending "
                                        "nullable columns is supported" % (quote(table.name), i, _describe(stored_column), new),
                                        table.name, c.name)
            for c in table.columns[len(old):]:
                if not c.nullable:
                    raise SchemaRefusal("not_append_only", "table %s: added column %s must be nullable — existing rows "
                                        "have no value to backfill" % (quote(table.name), quote(c.name)), table.name, c.name)
            plan["old"] = [Column(s["name"], s["type"], s["nullable"]) for s in old]
            plan["migrate"] = len(old) < len(table.columns)
            plan["backfill"] = table.materialize and any(c["name"] not in physical for c in old)
        plans.append(plan)
    statements = report["statements"]

    def run(sql, *args):
        statements.append(sql)
        conn.execute(sql, *args)

    configured = {table.name for table in schema.tables}
    retired = sorted((name for name in stored if name not in configured), key=utf16_key)
    for name in retired:
        conn.execute("DELETE FROM sync_row_scopes WHERE tbl = ?", (name,))
        conn.execute("DELETE FROM sync_blob_refs WHERE tbl = ?", (name,))
        run("DROP TABLE IF EXISTS %s" % ident(name))
    report["retiredTables"] = retired
    for plan in plans:
        table = plan["table"]
        if not plan["existed"]:
            continue
        declared = {name for name, _, _ in table.indexes or []}
        for row in conn.execute("PRAGMA index_list(%s)" % ident(table.name)).fetchall():
            name, origin = row[1], row[3]
            if origin == "c" and (name.startswith("sync_ix_") or name in declared):
                run("DROP INDEX IF EXISTS %s" % ident(name))
    for plan in plans:
        table = plan["table"]
        if not plan["existed"]:
            run(create_table(table))
            continue
        physical = plan["physical"]
        if table.materialize:
            for c in table.columns:
                if c.name not in physical:
                    run("ALTER TABLE %s ADD COLUMN %s %s" % (ident(table.name), ident(c.name), SQL_TYPES[c.type]))
        if "_sync_column_versions" not in physical:
            run("ALTER TABLE %s ADD COLUMN %s BLOB" % (ident(table.name), ident("_sync_column_versions")))
    for table in schema.tables:
        if table.materialize:
            for index in table.indexes or []:
                run(create_index(table, index))
    for plan in plans:
        if plan["migrate"] or plan["backfill"]:
            report["rewrittenRows"] += _rewrite(conn, plan)
    conn.execute("INSERT INTO sync_schema_meta (id, schema_version, layouts) VALUES (1, ?, ?) "
                 "ON CONFLICT(id) DO UPDATE SET schema_version = excluded.schema_version, layouts = excluded.layouts",
                 (schema.version, layouts_json(schema)))


def projection_values(values):
    """The projection columns' SQL values of a decoded row (booleans 0/1, NaN as NULL)."""
    out = []
    for value in values:
        if isinstance(value, bool):
            out.append(1 if value else 0)
        elif isinstance(value, float) and value != value:
            out.append(None)
        elif isinstance(value, (bytes, bytearray)):
            out.append(bytes(value))
        else:
            out.append(value)
    return out


def _rewrite(conn, plan):
    table = plan["table"]
    old, new = plan["old"], table.layout()
    rewritten = 0
    after = None
    while True:
        if after is None:
            rows = conn.execute("SELECT _sync_partition, _sync_row_id, _sync_payload FROM %s ORDER BY _sync_partition, "
                                "_sync_row_id LIMIT %d" % (ident(table.name), PAGE)).fetchall()
        else:
            rows = conn.execute("SELECT _sync_partition, _sync_row_id, _sync_payload FROM %s WHERE (_sync_partition, "
                                "_sync_row_id) > (?, ?) ORDER BY _sync_partition, _sync_row_id LIMIT %d"
                                % (ident(table.name), PAGE), after).fetchall()
        if not rows:
            return rewritten
        for partition, row_id, payload in rows:
            try:
                values = decode_row(old, payload)
            except RowDecodeError as error:
                raise SchemaRefusal("row_undecodable", "table %s: row %s in partition %s does not decode under its "
                                    "stored layout (column %s): %s" % (quote(table.name), quote(row_id),
                                                                       quote(partition), quote(error.column), error),
                                    table.name, error.column) from None
            values = values + [None] * (len(new) - len(old))
            sets = [("_sync_payload", encode_row(new, values) if plan["migrate"] else bytes(payload))]
            if table.materialize:
                sets += list(zip([c.name for c in new], projection_values(values)))
            conn.execute("UPDATE %s SET %s WHERE _sync_partition = ? AND _sync_row_id = ?"
                         % (ident(table.name), ", ".join("%s = ?" % ident(name) for name, _ in sets)),
                         [value for _, value in sets] + [partition, row_id])
            rewritten += 1
        after = (rows[-1][0], rows[-1][1])

