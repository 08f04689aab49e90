"""The server storage on SQLite (SSP2 §2.1–§2.4; design notes storage.md §4–§5).

Connection model (design notes push.md §7 Q5, the multi-connection answer): the file is in
WAL mode; committed reads go through one reader connection, and every write transaction —
``ensure_schema``, a single-row upsert, a push transaction — has a connection of its own.
So a push parked at a hook blocks no reader, readers never see its staged rows, and writes
of other transactions serialize on SQLite's write lock (``BEGIN IMMEDIATE``, waiting up to
``lockWaitMs``).
"""

import json
import sqlite3
import threading

from .errors import InvalidInput, StoreFailure
from .jsontext import quote
from .row_codec import decode_row
from .schema import layouts_json
from .schema_startup import projection_values, run_startup
from .storage_ddl import ident
from .storage_errors import ConstraintViolation, StorageQueryError, UnknownTable
from . import push_results, renamed_tables


def connect(path, lock_wait_ms):
    conn = sqlite3.connect(path, timeout=max(lock_wait_ms, 0) / 1000.0, isolation_level=None,
                           check_same_thread=False, factory=renamed_tables.connection_class())
    conn.execute("PRAGMA busy_timeout = %d" % max(lock_wait_ms, 0))
    return conn


def failure(context, error):
    return StoreFailure("%s: %s" % (context, error))


def scopes_text(scopes: dict) -> str:
    """The ``_sync_scopes`` / ``sync_changes.scopes`` JSON text of a ``{variable: value}`` map."""
    return "{" + ",".join(quote(k) + ":" + quote(v) for k, v in scopes.items()) + "}"


def stored_row(row_id, version, scopes, payload):
    return {"rowId": row_id, "serverVersion": version, "scopes": json.loads(scopes) if scopes else {},
            "payload": bytes(payload)}


class SqliteServerStorage:
    def __init__(self, path, lock_wait_ms=30_000, compatibility="0.22", hook=None):
        self.path = path
        self.lock_wait_ms = lock_wait_ms
        self.compatibility = compatibility
        self.hook = hook
        self.tables = {}
        self._memo = None
        self._lock = threading.Lock()
        self._transactions = set()
        self._closed = False
        try:
            self._reader = connect(path, lock_wait_ms)
        except sqlite3.Error as error:
            raise failure("sqlite server storage: cannot open %s" % path, error) from None

    # --- schema ---------------------------------------------------------------------

    def ensure_schema(self, schema, preview=False, hook=None):
        key = (schema.version, layouts_json(schema))
        if not preview and self._memo == key:
            return {"action": "memoized", "configuredVersion": schema.version, "storedVersion": schema.version,
                    "retiredTables": [], "statements": [], "rewrittenRows": 0}
        hook = hook or (lambda point: None)
        hook("before_lock")
        conn = connect(self.path, self.lock_wait_ms)
        try:
            try:
                # WAL: readers never wait for a parked writer, nor it for them (push.md §7 Q5).
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise failure("ensure_schema: cannot take the migration lock", error) from None
            hook("after_lock")
            try:
                report = run_startup(conn, schema, self.compatibility)
            except sqlite3.Error as error:
                raise failure("ensure_schema", error) from None
            hook("before_commit")
            if preview:
                conn.execute("ROLLBACK")
            else:
                try:
                    conn.execute("COMMIT")
                except sqlite3.Error as error:
                    raise failure("ensure_schema: COMMIT failed", error) from None
                self.tables = {table.name: table for table in schema.tables}
                self._memo = key
            return report
        finally:
            if conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            conn.close()

    def table(self, name):
        table = self.tables.get(name)
        if table is None:
            raise UnknownTable(name)
        return table

    # --- committed reads --------------------------------------------------------------

    def _read(self, context, sql, args=()):
        with self._lock:
            try:
                return self._reader.execute(sql, args).fetchall()
            except sqlite3.Error as error:
                raise failure(context, error) from None

    def get_row(self, partition, table_name, row_id):
        table = self.table(table_name)
        rows = self._read("get_row", "SELECT _sync_server_version, _sync_scopes, _sync_payload FROM %s "
                          "WHERE _sync_partition = ? AND _sync_row_id = ?" % ident(table.name), (partition, row_id))
        return stored_row(row_id, *rows[0]) if rows else None

    def read_projection(self, partition, table_name, row_id):
        table = self.table(table_name)
        if not table.materialize:
            raise InvalidInput('table "%s" is not materialized: it has no projection columns' % table.name)
        rows = self._read("read_projection", "SELECT %s FROM %s WHERE _sync_partition = ? AND _sync_row_id = ?"
                          % (", ".join(ident(c.name) for c in table.columns), ident(table.name)), (partition, row_id))
        if not rows:
            return None
        values = []
        for column, value in zip(table.columns, rows[0]):
            if value is not None and column.type == "boolean":
                value = bool(value)
            elif value is not None and column.type == "float":
                value = float(value)
            values.append(value)
        return values

    def upsert_row(self, partition, table_name, row):
        table = self.table(table_name)
        with self.begin(partition) as tx:
            tx.upsert_row(table.name, row, None)
            tx.commit()

    def get_push_result(self, partition, client_id, client_commit_id):
        rows = self._read("get_push_result", "SELECT result FROM sync_push_results WHERE partition = ? AND "
                          "client_id = ? AND client_commit_id = ?", (partition, client_id, client_commit_id))
        return push_results.parse_stored(rows[0][0]) if rows else None

    def get_max_commit_seq(self, partition):
        rows = self._read("get_max_commit_seq", "SELECT max_commit_seq FROM sync_partitions WHERE partition = ?",
                          (partition,))
        return rows[0][0] if rows else 0

    def query_authoritative(self, partition, table_name, row_ids):
        """Trusted code's read of committed rows (upstream's queryAuthoritative by row id,
        design notes push.md §4.3): the rows of ``row_ids`` that exist in ``partition``, in
        the order asked, and the partition's max commit seq, from one read transaction on the
        reader connection — one WAL snapshot. So it never waits for a push (nor sees its staged
        rows): a commit validator asking it from inside its own push is answered at once with
        the state before that push. Returns ``(rows, max_commit_seq)``."""
        table = self.table(table_name)
        sql = "SELECT _sync_server_version, _sync_scopes, _sync_payload FROM %s " \
              "WHERE _sync_partition = ? AND _sync_row_id = ?" % ident(table.name)
        with self._lock:
            try:
                self._reader.execute("BEGIN")
                try:
                    rows = []
                    for row_id in row_ids:
                        found = self._reader.execute(sql, (partition, row_id)).fetchall()
                        if found:
                            rows.append(stored_row(row_id, *found[0]))
                    seq = self._reader.execute("SELECT max_commit_seq FROM sync_partitions WHERE partition = ?",
                                               (partition,)).fetchall()
                finally:
                    self._reader.execute("COMMIT")
            except sqlite3.Error as error:
                raise failure("query_authoritative", error) from None
        return rows, seq[0][0] if seq else 0

    def read_commit_window(self, partition, after_seq, limit):
        with self._lock:
            try:
                self._reader.execute("BEGIN")
                try:
                    commits = self._reader.execute(
                        "SELECT commit_seq, client_id, client_commit_id, actor_id, created_at_ms FROM sync_commits "
                        "WHERE partition = ? AND commit_seq > ? ORDER BY commit_seq LIMIT ?",
                        (partition, after_seq, limit)).fetchall()
                    out = []
                    for seq, client_id, commit_id, actor_id, created in commits:
                        changes = self._reader.execute(
                            "SELECT tbl, row_id, op, row_version, scopes, payload FROM sync_changes WHERE partition = ? "
                            "AND commit_seq = ? ORDER BY idx", (partition, seq)).fetchall()
                        out.append({"commitSeq": seq, "clientId": client_id, "clientCommitId": commit_id,
                                    "actorId": actor_id, "createdAtMs": created, "changes": [
                                        {"table": t, "rowId": r, "op": "upsert" if op == 1 else "delete",
                                         "rowVersion": v, "scopes": json.loads(s),
                                         "payload": None if p is None else bytes(p)}
                                        for t, r, op, v, s, p in changes]})
                finally:
                    self._reader.execute("COMMIT")
            except sqlite3.Error as error:
                raise failure("read_commit_window", error) from None
        return out

    # --- transactions ---------------------------------------------------------------

    def begin(self, partition):
        if self._closed:
            raise StoreFailure("the storage is closed")
        tx = Transaction(self, partition)
        tx.start()
        with self._lock:
            self._transactions.add(tx)
        return tx

    def _forget(self, tx):
        with self._lock:
            self._transactions.discard(tx)

    def close(self):
        self._closed = True
        with self._lock:
            transactions = list(self._transactions)
        for tx in transactions:
            tx.close()
        with self._lock:
            self._reader.close()


SAVEPOINT = "syncular_push_candidate"


class Transaction:
    """A push transaction (design notes storage.md §5.2) on a connection of its own.

    On SQLite ``begin`` is ``BEGIN IMMEDIATE``: it takes the database's single write lock,
    waiting up to ``lockWaitMs``, so every transaction serializes whatever its partition
    (design notes push.md §2.1, §5.3; requirement E-1). It takes no *partition* lock in
    the 0.22 sense: ``lock_partition_for_push`` only opens the candidate savepoint, so a
    write made before it survives a rejection (requirement D-7)."""

    def __init__(self, storage, partition):
        self.storage = storage
        self.partition = partition
        self.conn = None
        self.finished = False
        self.locked = False
        self._mutex = threading.RLock()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _check(self):
        if self.finished:
            raise InvalidInput("transaction already finished")

    def start(self):
        if self.conn is None:
            try:
                self.conn = connect(self.storage.path, self.storage.lock_wait_ms)
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                self._abandon()
                self.finished = True
                raise failure("begin: cannot take the database write lock", error) from None

    def _exec(self, context, sql, args=()):
        self._check()
        try:
            return self.conn.execute(sql, args)
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as error:
            raise failure(context, error) from None

    def lock_partition_for_push(self):
        with self._mutex:
            self._check()
            if self.locked:
                return
            self._exec("lock_partition_for_push", "SAVEPOINT " + SAVEPOINT)
            self.locked = True

    def get_push_result(self, client_id, client_commit_id):
        with self._mutex:
            rows = self._exec("get_push_result", "SELECT result FROM sync_push_results WHERE partition = ? AND "
                              "client_id = ? AND client_commit_id = ?",
                              (self.partition, client_id, client_commit_id)).fetchall()
            return push_results.parse_stored(rows[0][0]) if rows else None

    def read_row(self, table_name, row_id):
        with self._mutex:
            self._check()
            table = self.storage.table(table_name)
            rows = self._exec("read_row", "SELECT _sync_server_version, _sync_scopes, _sync_payload FROM %s WHERE "
                              "_sync_partition = ? AND _sync_row_id = ?" % ident(table.name),
                              (self.partition, row_id)).fetchall()
            return stored_row(row_id, *rows[0]) if rows else None

    def scan_rows(self, table_name, scope_filter, after_row_id, limit):
        with self._mutex:
            self._check()
            table = self.storage.table(table_name)
            if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
                raise InvalidInput("commit validator scan limit must be an integer from 1 to 1,000")
            if not scope_filter:
                raise StorageQueryError("sync.storage.scan_requires_scope", "scanRows requires a non-empty scopeFilter")
            if any(not values for values in scope_filter.values()):
                return []
            sql = "SELECT _sync_row_id, _sync_server_version, _sync_scopes, _sync_payload FROM %s WHERE " \
                  "_sync_partition = ?" % ident(table.name)
            args = [self.partition]
            if after_row_id is not None:
                sql += " AND _sync_row_id > ?"
                args.append(after_row_id)
            out = []
            for row_id, version, scopes, payload in self._exec("scan_rows", sql + " ORDER BY _sync_row_id", args):
                row = stored_row(row_id, version, scopes, payload)
                if all(row["scopes"].get(var) in values for var, values in scope_filter.items()):
                    out.append(row)
                    if len(out) == limit:
                        break
            return out

    def upsert_row(self, table_name, row, op_index):
        with self._mutex:
            self._check()
            table = self.storage.table(table_name)
            values = decode_row(table.layout(), row["payload"])
            names = ["_sync_partition", "_sync_row_id"]
            args = [self.partition, row["rowId"]]
            if table.materialize:
                names += [c.name for c in table.columns]
                args += projection_values(values)
            names += ["_sync_server_version", "_sync_scopes", "_sync_payload", "_sync_column_versions"]
            args += [row["serverVersion"], scopes_text(row["scopes"]), bytes(row["payload"]), None]
            sql = "INSERT INTO %s (%s) VALUES (%s) ON CONFLICT (_sync_partition, _sync_row_id) DO UPDATE SET %s" % (
                ident(table.name), ", ".join(ident(n) for n in names), ", ".join("?" * len(names)),
                ", ".join("%s = excluded.%s" % (ident(n), ident(n)) for n in names[2:]))
            try:
                self._exec("upsert_row", sql, args)
            except sqlite3.IntegrityError:
                raise ConstraintViolation(op_index if op_index is not None else 0) from None
            self._exec("upsert_row", "DELETE FROM sync_row_scopes WHERE partition = ? AND tbl = ? AND row_id = ?",
                       (self.partition, table.name, row["rowId"]))
            for var, value in row["scopes"].items():
                self._exec("upsert_row", "INSERT OR IGNORE INTO sync_row_scopes (partition, tbl, var, value, row_id) "
                           "VALUES (?, ?, ?, ?, ?)", (self.partition, table.name, var, value, row["rowId"]))

    def delete_row(self, table_name, row_id):
        with self._mutex:
            self._check()
            table = self.storage.table(table_name)
            self._exec("delete_row", "DELETE FROM %s WHERE _sync_partition = ? AND _sync_row_id = ?" % ident(table.name),
                       (self.partition, row_id))
            self._exec("delete_row", "DELETE FROM sync_row_scopes WHERE partition = ? AND tbl = ? AND row_id = ?",
                       (self.partition, table.name, row_id))
            self._exec("delete_row", "DELETE FROM sync_blob_refs WHERE partition = ? AND tbl = ? AND row_id = ?",
                       (self.partition, table.name, row_id))

    def append_commit(self, entry):
        """Allocate the next dense commit seq of the partition and write the commit, its
        changes and their scopes; the counter row is updated inside this transaction, so a
        rollback gives the number back (design notes push.md §1.3)."""
        with self._mutex:
            self._check()
            try:
                p = self.partition
                self._exec("append_commit", "INSERT OR IGNORE INTO sync_partitions (partition) VALUES (?)", (p,))
                (current,) = self._exec("append_commit", "SELECT max_commit_seq FROM sync_partitions WHERE partition = ?",
                                        (p,)).fetchone()
                seq = current + 1
                self._exec("append_commit", "UPDATE sync_partitions SET max_commit_seq = ? WHERE partition = ?", (seq, p))
                self._exec("append_commit", "INSERT INTO sync_commits (partition, commit_seq, client_id, client_commit_id, "
                           "actor_id, created_at_ms) VALUES (?, ?, ?, ?, ?, ?)",
                           (p, seq, entry["clientId"], entry["clientCommitId"], entry["actorId"], entry["createdAtMs"]))
                for idx, change in enumerate(entry["changes"]):
                    upsert = change["op"] == "upsert"
                    self._exec("append_commit", "INSERT INTO sync_changes (partition, commit_seq, idx, tbl, row_id, op, "
                               "row_version, scopes, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               (p, seq, idx, change["table"], change["rowId"], 1 if upsert else 2, change["rowVersion"],
                                scopes_text(change["scopes"]),
                                None if change["payload"] is None else bytes(change["payload"])))
                    for var, value in change["scopes"].items():
                        self._exec("append_commit", "INSERT OR IGNORE INTO sync_change_scopes (partition, tbl, var, value, "
                                   "commit_seq) VALUES (?, ?, ?, ?, ?)", (p, change["table"], var, value, seq))
                    if not upsert:
                        self._exec("append_commit", "INSERT INTO sync_tombstones (partition, tbl, row_id, commit_seq) "
                                   "VALUES (?, ?, ?, ?) ON CONFLICT (partition, tbl, row_id) DO UPDATE SET "
                                   "commit_seq = excluded.commit_seq", (p, change["table"], change["rowId"], seq))
            except sqlite3.IntegrityError as error:
                raise failure("append_commit", error) from None
            return seq

    def put_push_result(self, client_id, client_commit_id, result):
        with self._mutex:
            try:
                self._exec("put_push_result", "INSERT OR IGNORE INTO sync_push_results (partition, client_id, "
                           "client_commit_id, result) VALUES (?, ?, ?, ?)",
                           (self.partition, client_id, client_commit_id, push_results.stored_text(result)))
            except sqlite3.IntegrityError as error:
                raise failure("put_push_result", error) from None

    def commit_rejected_push_result(self, client_id, client_commit_id, result, before_commit=None):
        """Roll the candidate back to its savepoint and store the rejection, still under the
        write lock, then commit (design notes storage.md §5.2)."""
        with self._mutex:
            self._check()
            if not self.locked:
                raise InvalidInput("push rejection requires its apply savepoint")
            self._exec("commit_rejected_push_result", "ROLLBACK TO SAVEPOINT " + SAVEPOINT)
            self._exec("commit_rejected_push_result", "RELEASE SAVEPOINT " + SAVEPOINT)
            self.put_push_result(client_id, client_commit_id, result)
            if before_commit is not None:
                before_commit()
            self.commit()

    def commit(self):
        with self._mutex:
            self._check()
            try:
                if self.conn is not None:
                    self.conn.execute("COMMIT")
            except sqlite3.Error as error:
                self.rollback()
                raise failure("COMMIT failed (rolled back)", error) from None
            self._finish()

    def rollback(self):
        with self._mutex:
            if self.finished:
                return
            if self.conn is not None and self.conn.in_transaction:
                try:
                    self.conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            self._finish()

    def _finish(self):
        self.finished = True
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        self.storage._forget(self)

    def _abandon(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except sqlite3.Error:
                pass
            self.conn = None

    def close(self):
        self.rollback()


def open_server_storage(path, lock_wait_ms=30_000, compatibility="0.22"):
    return SqliteServerStorage(path, lock_wait_ms, compatibility)
