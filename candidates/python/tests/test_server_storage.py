"""The SQLite server storage: startup (docs/storage.md "Startup"), the push transaction's
lock and savepoint (design notes storage.md §5.2, push.md §2.1), and the reads the harness
compares with the database file."""

import os
import sqlite3
import tempfile
import unittest

import helpers  # noqa: F401  (puts the package on sys.path)

from ssp_candidate.errors import InvalidInput, StoreFailure
from ssp_candidate.row_codec import encode_row
from ssp_candidate.schema import compile_schema, schema_from_json
from ssp_candidate.server_storage import SqliteServerStorage
from ssp_candidate.storage_errors import IdempotencyCacheMiss, SchemaRefusal, UnknownTable


def schema(version=1, extra_column=False):
    columns = [{"name": "id", "type": "string", "nullable": False},
               {"name": "project_id", "type": "string", "nullable": False}]
    if extra_column:
        columns.append({"name": "priority", "type": "integer", "nullable": True})
    return compile_schema(schema_from_json({"version": version, "tables": [
        {"name": "tasks", "columns": columns, "primaryKey": "id", "scopes": ["project:{project_id}"]}]}))


def row(row_id, project="p1", version=1, extra=False):
    table = schema(extra_column=extra).find("tasks")
    values = [row_id, project] + ([None] if extra else [])
    return {"rowId": row_id, "serverVersion": version, "scopes": {"project_id": project},
            "payload": encode_row(table.layout(), values)}


class ServerStorageTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "server.sqlite")
        self.opened = []

    def tearDown(self):
        for storage in self.opened:
            storage.close()
        self.dir.cleanup()

    def open(self, lock_wait_ms=2000, compatibility="0.22"):
        storage = SqliteServerStorage(self.path, lock_wait_ms, compatibility)
        self.opened.append(storage)
        return storage

    def query(self, sql):
        with sqlite3.connect(self.path) as db:
            return db.execute(sql).fetchall()

    def test_fresh_then_verified_then_memoized_then_newer_refused(self):
        storage = self.open()
        report = storage.ensure_schema(schema())
        self.assertEqual(report["action"], "migrated")
        self.assertEqual(report["statements"][0].split(" (")[0], 'CREATE TABLE IF NOT EXISTS "tasks"')
        self.assertEqual(self.query("SELECT schema_version, layouts FROM sync_schema_meta"),
                         [(1, '{"tasks":[{"name":"id","type":"string","nullable":false},'
                              '{"name":"project_id","type":"string","nullable":false}]}')])
        self.assertEqual(storage.ensure_schema(schema())["action"], "memoized")
        self.assertEqual(self.open().ensure_schema(schema())["action"], "verified")
        with self.assertRaises(SchemaRefusal) as refused:
            self.open().ensure_schema(schema(version=0))
        self.assertEqual(refused.exception.data["reason"], "stored_newer")
        self.assertIn("stored schema version 1 is newer than the configured schema (0)", str(refused.exception))

    def test_same_version_drift_is_refused_and_a_bump_appends(self):
        storage = self.open()
        storage.ensure_schema(schema())
        storage.upsert_row("acme", "tasks", row("t1"))
        with self.assertRaises(SchemaRefusal) as refused:
            self.open().ensure_schema(schema(extra_column=True))
        self.assertEqual(refused.exception.data, {"reason": "layouts_disagree", "table": "tasks", "column": "priority"})
        report = self.open().ensure_schema(schema(version=2, extra_column=True))
        self.assertEqual(report["action"], "migrated")
        self.assertEqual(report["rewrittenRows"], 1)
        bumped = self.open()
        bumped.ensure_schema(schema(version=2, extra_column=True))
        self.assertEqual(bumped.get_row("acme", "tasks", "t1")["payload"], row("t1", extra=True)["payload"])

    def test_a_missing_internal_column_is_a_physical_mismatch(self):
        self.open().ensure_schema(schema())
        with sqlite3.connect(self.path) as db:
            db.execute('ALTER TABLE tasks DROP COLUMN "_sync_column_versions"')
        with self.assertRaises(SchemaRefusal) as refused:
            self.open().ensure_schema(schema())
        self.assertEqual(refused.exception.data["reason"], "physical_mismatch")
        self.assertIn('(table "tasks" column "_sync_column_versions" is missing)', str(refused.exception))

    def test_rows_before_ensure_are_unknown_tables(self):
        with self.assertRaises(UnknownTable):
            self.open().get_row("acme", "tasks", "t1")

    def test_begin_takes_the_write_lock_and_the_savepoint_keeps_earlier_writes(self):
        storage = self.open()
        storage.ensure_schema(schema())
        impatient = self.open(lock_wait_ms=100)
        impatient.ensure_schema(schema())
        tx = storage.begin("acme")
        with self.assertRaises(StoreFailure):
            impatient.begin("beta")
        tx.upsert_row("tasks", row("before"), 0)
        tx.lock_partition_for_push()
        tx.upsert_row("tasks", row("t1"), 0)
        self.assertEqual(tx.append_commit({"clientId": "c1", "clientCommitId": "k1", "actorId": "a",
                                           "createdAtMs": 1, "changes": []}), 1)
        self.assertIsNone(storage.get_row("acme", "tasks", "t1"), "readers never see staged rows")
        rejected = {"status": "rejected", "commitSeq": None, "recordedAtMs": None, "cacheIdentity": None,
                    "results": [{"opIndex": 0, "status": "error", "code": "app.refused", "message": "no",
                                 "retryable": False, "details": None}]}
        tx.commit_rejected_push_result("c1", "k1", rejected)
        with self.assertRaises(InvalidInput):
            tx.read_row("tasks", "t1")
        self.assertIsNone(storage.get_row("acme", "tasks", "t1"))
        self.assertIsNotNone(storage.get_row("acme", "tasks", "before"))
        self.assertEqual(storage.get_max_commit_seq("acme"), 0)
        self.assertEqual(storage.get_push_result("acme", "c1", "k1")["results"], rejected["results"])

    def test_an_unreadable_stored_result_is_a_cache_miss(self):
        storage = self.open()
        storage.ensure_schema(schema())
        with sqlite3.connect(self.path) as db:
            db.execute("INSERT INTO sync_push_results VALUES ('acme', 'c1', 'k1', "
                       "'{\"status\":\"applied\",\"results\":[]}')")
        with self.assertRaises(IdempotencyCacheMiss):
            storage.get_push_result("acme", "c1", "k1")


if __name__ == "__main__":
    unittest.main()
