"""Push over the driver protocol version 2 (docs/driver-protocol.md "push", "transactions"):
the driver as a child process, with the harness's callbacks played by the test."""

import base64
import os
import sqlite3
import tempfile
import unittest

from helpers import candidate_path  # noqa: F401  (puts the package on sys.path)
from test_protocol import Driver

from ssp_candidate.row_codec import Column, encode_row

SCHEMA = {"version": 1, "tables": [
    {"name": "tasks", "columns": [{"name": "id", "type": "string", "nullable": False},
                                  {"name": "project_id", "type": "string", "nullable": False},
                                  {"name": "title", "type": "string", "nullable": True}],
     "primaryKey": "id", "scopes": ["project:{project_id}"], "materialize": True},
    {"name": "members", "columns": [{"name": "id", "type": "string", "nullable": False},
                                    {"name": "org_id", "type": "string", "nullable": False},
                                    {"name": "email", "type": "string", "nullable": False}],
     "primaryKey": "id", "scopes": ["org:{org_id}"], "indexes": [{"name": "by_email", "columns": ["email"],
                                                                  "unique": True}], "materialize": True}]}
TASK = [Column("id", "string", False), Column("project_id", "string", False), Column("title", "string", True)]
MEMBER = [Column("id", "string", False), Column("org_id", "string", False), Column("email", "string", False)]
ALL = {"project_id": ["*"], "org_id": ["*"]}


def task(row_id, project, title=None):
    return base64.b64encode(encode_row(TASK, [row_id, project, title])).decode()


def member(row_id, org, email):
    return base64.b64encode(encode_row(MEMBER, [row_id, org, email])).decode()


def upsert(table, row_id, payload, base=None):
    return {"table": table, "rowId": row_id, "op": "upsert", "payload": payload, "baseVersion": base}


class PushProtocolTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "server.sqlite")
        self.callback = lambda message: {}
        self.driver = Driver(lambda message: self.callback(message))
        self.assertEqual(self.driver.call("hello", protocol=2, harness="t")["result"]["protocol"], 2)
        opened = self.driver.call("storage.open", location={"backend": "sqlite", "path": self.path},
                                  options={"compatibility": "0.22", "lockWaitMs": 2000, "hooks": False})
        self.storage = opened["result"]["storage"]
        report = self.driver.call("storage.ensure_schema", storage=self.storage, schema=SCHEMA)["result"]
        self.assertEqual(report["action"], "migrated")
        self.identities = 0

    def tearDown(self):
        self.driver.call("storage.close", storage=self.storage)
        self.driver.close()
        self.dir.cleanup()

    def push(self, key, operations, callbacks=None, allowed=ALL, client="client-1", schema=SCHEMA, storage=None):
        """push.run; ``schema=None`` sends none, as a harness does to an ensuredSchema driver."""
        self.identities += 1
        carried = {} if schema is None else {"schema": schema}
        return self.driver.call("push.run", storage=storage or self.storage, **carried,
                                actor={"partition": "acme", "actorId": "user-1", "allowedScopes": allowed},
                                commit={"clientId": client, "clientCommitId": key, "operations": operations},
                                nowMs=1000 + self.identities, maxOperationsPerRequest=500,
                                cacheIdentity="identity-%d" % self.identities,
                                callbacks=callbacks or {"rowValidators": [], "commitValidator": False,
                                                        "notify": False, "hooks": False})

    def count(self, table):
        with sqlite3.connect(self.path) as db:
            return db.execute("SELECT COUNT(*) FROM " + table).fetchone()[0]

    def test_hello_answers_version_one_without_push(self):
        driver = Driver()
        try:
            hello = driver.call("hello", protocol=1, harness="t")["result"]
            self.assertEqual(hello["protocol"], 1)
            self.assertNotIn("push", hello["capabilities"])
        finally:
            driver.close()

    def test_a_push_without_a_schema_runs_under_the_ensured_one(self):
        hello = Driver()
        try:
            capabilities = hello.call("hello", protocol=2, harness="t")["result"]["capabilities"]
            self.assertTrue(capabilities["ensuredSchema"])
        finally:
            hello.close()
        self.assertEqual(self.push("k1", [upsert("tasks", "t1", task("t1", "p1"))], schema=None)["result"]["status"],
                         "applied")
        # A storage on which no ensure_schema succeeded has no table in force.
        other = self.driver.call("storage.open", location={"backend": "sqlite", "path": self.path},
                                 options={"compatibility": "0.22", "lockWaitMs": 2000, "hooks": False})
        other = other["result"]["storage"]
        try:
            refused = self.push("k2", [upsert("tasks", "t2", task("t2", "p1"))], schema=None, storage=other)["result"]
            self.assertEqual(refused["status"], "rejected")
            self.assertEqual(refused["results"][0]["code"], "sync.unknown_table")
        finally:
            self.driver.call("storage.close", storage=other)

    def test_applied_then_cached_with_dense_seqs_and_the_log(self):
        first = self.push("k1", [upsert("tasks", "t1", task("t1", "p1"))])["result"]
        self.assertEqual(first, {"status": "applied", "commitSeq": 1, "results": [{"opIndex": 0, "status": "applied"}],
                                 "replayed": False})
        again = self.push("k1", [upsert("tasks", "t1", task("t1", "p1"))])["result"]
        self.assertEqual(again["status"], "cached")
        self.assertEqual(again["commitSeq"], 1)
        self.assertEqual(self.push("k2", [upsert("tasks", "t1", task("t1", "p1", "x"), 1)])["result"]["commitSeq"], 2)
        window = self.driver.call("storage.read_commit_window", storage=self.storage, partition="acme", afterSeq=0,
                                  limit=10)["result"]["commits"]
        self.assertEqual([c["commitSeq"] for c in window], [1, 2])
        self.assertEqual(window[1]["changes"][0]["rowVersion"], 2)
        self.assertEqual(self.driver.call("storage.get_max_commit_seq", storage=self.storage,
                                          partition="acme")["result"]["commitSeq"], 2)

    def test_conflict_is_stored_and_replayed(self):
        self.push("k1", [upsert("tasks", "t1", task("t1", "p1"))])
        conflict = self.push("k2", [upsert("tasks", "t2", task("t2", "p1")),
                                    upsert("tasks", "t1", task("t1", "p1"), 0)])["result"]
        self.assertEqual(conflict["status"], "rejected")
        self.assertEqual(conflict["results"][0]["status"], "conflict")
        self.assertEqual(conflict["results"][0]["opIndex"], 1)
        self.assertEqual(conflict["results"][0]["serverRow"], task("t1", "p1"))
        replay = self.push("k2", [upsert("tasks", "t9", task("t9", "p1"))])["result"]
        self.assertEqual(replay["results"], conflict["results"])
        self.assertTrue(replay["replayed"])
        self.assertEqual(self.count("sync_push_results"), 2)
        row = self.driver.call("storage.get_row", storage=self.storage, partition="acme", table="tasks", rowId="t2")
        self.assertIsNone(row["result"]["row"])

    def test_request_refusals_write_nothing(self):
        refused = self.push("k1", [])
        self.assertEqual(refused["error"]["code"], "ssp.push_request_refused")
        self.assertEqual(refused["error"]["data"], {"code": "sync.empty_commit"})
        self.assertEqual(self.count("sync_push_results"), 0)

    def test_unique_violation_is_a_constraint_violation(self):
        self.push("k1", [upsert("members", "m1", member("m1", "o1", "a@x"))])
        answer = self.push("k2", [upsert("members", "m2", member("m2", "o1", "a@x"))])["result"]
        self.assertEqual(answer["results"], [{"opIndex": 0, "status": "error", "code": "sync.constraint_violation",
                                              "message": "write violates a relational constraint", "retryable": False,
                                              "details": None}])

    def test_validators_hooks_and_the_reader(self):
        seen = []

        def callback(message):
            seen.append((message["method"], message["params"].get("point")))
            if message["method"] == "validate_commit":
                call = message["params"]["call"]
                # The reader is served while validate_commit is unanswered (on its own request id).
                self.driver.send({"id": 900, "method": "push.read_row",
                                  "params": {"call": call, "table": "tasks", "rowId": "t1"}})
                read = self.driver.wait(900)
                self.assertEqual(read["result"]["row"]["serverVersion"], 1)
                return {"rejection": {"code": "test.aggregate", "message": "cap", "details": "{\"a\": 1}",
                                      "opIndex": 0}}
            return {}

        self.callback = callback
        answer = self.push("k1", [upsert("tasks", "t1", task("t1", "p1"))],
                           {"rowValidators": ["tasks"], "commitValidator": True, "notify": True, "hooks": True})
        self.assertEqual(answer["result"]["results"][0]["code"], "test.aggregate")
        self.assertEqual(answer["result"]["results"][0]["details"], '{"a":1}')
        self.assertEqual([point for method, point in seen if method == "hook"],
                         ["after_optimistic_miss", "after_begin", "after_lock", "after_locked_recheck",
                          "after_operations", "before_commit"])
        self.assertNotIn(("notify", None), seen)

    def test_raw_transaction(self):
        tx = self.driver.call("storage.begin", storage=self.storage, partition="acme")["result"]["transaction"]
        self.assertEqual(self.driver.call("tx.lock_partition_for_push", transaction=tx)["result"], {})
        entry = {"clientId": "c1", "clientCommitId": "k1", "actorId": "a", "createdAtMs": 5, "changes": []}
        self.assertEqual(self.driver.call("tx.append_commit", transaction=tx, entry=entry)["result"], {"commitSeq": 1})
        self.driver.call("tx.commit", transaction=tx)
        late = self.driver.call("tx.commit", transaction=tx)
        self.assertEqual(late["error"]["code"], "ssp.invalid_argument")
        self.assertEqual(self.driver.call("tx.rollback", transaction=tx)["result"], {})
        self.assertEqual(self.driver.call("tx.close", transaction=tx)["result"], {})
        self.assertEqual(self.count("sync_commits"), 1)


if __name__ == "__main__":
    unittest.main()
