"""Registered remote commands over the driver protocol version 2 (docs/driver-protocol.md
"command.run"): the driver as a child process, one delivery at a time, the hooks played by
the test. The races of commands are the suite's schedules (PUSH-R7, R8, R9)."""

import base64
import json
import os
import sqlite3
import tempfile
import unittest

from helpers import candidate_path  # noqa: F401  (puts the package on sys.path)
from test_protocol import Driver

from ssp_candidate.row_codec import Column, decode_row, encode_row

SCHEMA = {"version": 1, "tables": [
    {"name": "tasks", "columns": [{"name": "id", "type": "string", "nullable": False},
                                  {"name": "project_id", "type": "string", "nullable": False},
                                  {"name": "title", "type": "string", "nullable": True},
                                  {"name": "done", "type": "boolean", "nullable": False}],
     "primaryKey": "id", "scopes": ["project:{project_id}"], "materialize": True}]}
TASK = [Column("id", "string", False), Column("project_id", "string", False), Column("title", "string", True),
        Column("done", "boolean", False)]
ALL = {"project_id": ["*"]}
NO_HOOKS = {"hooks": False}


def task(row_id, project, title=None, done=False):
    return base64.b64encode(encode_row(TASK, [row_id, project, title, done])).decode()


class CommandProtocolTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "server.sqlite")
        self.callback = lambda message: {}
        self.driver = Driver(lambda message: self.callback(message))
        hello = self.driver.call("hello", protocol=2, harness="t")["result"]
        self.assertTrue(hello["capabilities"]["commands"])
        opened = self.driver.call("storage.open", location={"backend": "sqlite", "path": self.path},
                                  options={"compatibility": "0.22", "lockWaitMs": 2000, "hooks": False})
        self.storage = opened["result"]["storage"]
        self.driver.call("storage.ensure_schema", storage=self.storage, schema=SCHEMA)
        self.calls = 0

    def tearDown(self):
        self.driver.call("storage.close", storage=self.storage)
        self.driver.close()
        self.dir.cleanup()

    def command(self, operation="inc", client="app", request="req-1", kind="increment", row="c1", project="p1",
                authorized=True, allowed=ALL, actor="user-1", hooks=False, callbacks=None):
        self.calls += 1
        return self.driver.call("command.run", storage=self.storage, schema=SCHEMA,
                                actor={"partition": "acme", "actorId": actor, "allowedScopes": allowed},
                                request={"operationId": operation, "clientId": client, "requestId": request},
                                command=None if kind is None else {"kind": kind, "rowId": row, "project": project},
                                authorized=authorized, nowMs=1000 + self.calls,
                                cacheIdentity="identity-%d" % self.calls, callbacks=callbacks or {"hooks": hooks})

    def push(self, key, row_id, project, title):
        operation = {"table": "tasks", "rowId": row_id, "op": "upsert", "payload": task(row_id, project, title),
                     "baseVersion": None}
        return self.driver.call("push.run", storage=self.storage, schema=SCHEMA,
                                actor={"partition": "acme", "actorId": "user-1", "allowedScopes": ALL},
                                commit={"clientId": "client-1", "clientCommitId": key, "operations": [operation]},
                                nowMs=999, maxOperationsPerRequest=500, cacheIdentity="push-" + key,
                                callbacks={"rowValidators": [], "commitValidator": False, "notify": False,
                                           "hooks": False})["result"]

    def row(self, row_id):
        stored = self.driver.call("storage.get_row", storage=self.storage, partition="acme", table="tasks",
                                  rowId=row_id)["result"]["row"]
        if stored is None:
            return None
        return stored["serverVersion"], decode_row(TASK, base64.b64decode(stored["payload"]))

    def count(self, table):
        with sqlite3.connect(self.path) as db:
            return db.execute("SELECT COUNT(*) FROM " + table).fetchone()[0]

    def refusal(self, answer):
        self.assertIn("error", answer)
        return answer["error"]["code"], answer["error"].get("data", {}).get("code")

    def test_applied_under_the_tuple_key_then_cached_without_running(self):
        first = self.command()["result"]
        self.assertEqual(first, {"status": "applied", "commitSeq": 1, "results": [{"opIndex": 0, "status": "applied"}],
                                 "replayed": False})
        self.assertEqual(self.row("c1"), (1, ["c1", "p1", "1", False]))
        stored = self.driver.call("storage.get_push_result", storage=self.storage, partition="acme",
                                  clientId='["remote-command","user-1","app"]',
                                  clientCommitId='["inc","req-1"]')["result"]["result"]
        self.assertEqual((stored["status"], stored["commitSeq"], stored["cacheIdentity"]), ("applied", 1, "identity-1"))
        retry = self.command()["result"]
        self.assertEqual((retry["status"], retry["commitSeq"], retry["replayed"]), ("cached", 1, True))
        self.assertEqual(self.row("c1"), (1, ["c1", "p1", "1", False]), "the retry ran the command again")
        # Another split of the same characters, and another actor, are commands of their own.
        self.assertEqual(self.command(operation="inc", request="req-1", actor="user-2")["result"]["commitSeq"], 2)
        self.assertEqual(self.command(operation="inc:req", request="1")["result"]["commitSeq"], 3)
        self.assertEqual(self.row("c1"), (3, ["c1", "p1", "3", False]))

    def test_an_increment_keeps_every_column_it_read(self):
        self.push("k1", "c1", "p1", "41")
        self.assertEqual(self.command()["result"]["status"], "applied")
        self.assertEqual(self.row("c1"), (2, ["c1", "p1", "42", False]))

    def test_requests_that_cannot_run_are_refused_in_order_storing_nothing(self):
        self.assertEqual(self.refusal(self.command(request="", kind=None)),
                         ("ssp.operation_refused", "operation.invalid_request"))
        self.assertEqual(self.refusal(self.command(operation="")), ("ssp.operation_refused", "operation.invalid_request"))
        self.assertEqual(self.refusal(self.command(client='["remote-command","x","y"]', kind=None)),
                         ("ssp.push_request_refused", "sync.invalid_client_id"))
        self.assertEqual(self.refusal(self.command(kind=None, authorized=False)),
                         ("ssp.operation_refused", "operation.unknown"))
        self.assertEqual(self.refusal(self.command(authorized=False, allowed=None)),
                         ("ssp.operation_refused", "operation.forbidden"))
        self.assertEqual(self.refusal(self.command(allowed=None)),
                         ("ssp.operation_refused", "operation.execution_failed"))
        self.assertEqual(self.count("sync_push_results"), 0)
        self.assertIsNone(self.row("c1"))

    def test_authorize_runs_on_every_delivery_before_the_lookup(self):
        self.assertEqual(self.command()["result"]["status"], "applied")
        self.assertEqual(self.refusal(self.command(authorized=False)), ("ssp.operation_refused", "operation.forbidden"))

    def test_a_bad_plan_or_a_throw_stores_nothing_and_a_retry_runs(self):
        for kind in ("no-mutations", "unknown-table", "empty-row-id", "partial-row", "read-unknown-table"):
            with self.subTest(kind=kind):
                self.assertEqual(self.refusal(self.command(operation="bad", request="req-" + kind, kind=kind)),
                                 ("ssp.operation_refused", "operation.invalid_request"))
        self.assertEqual(self.command(kind="move", row="absent")["error"]["data"]["code"], "operation.invalid_request")
        threw = self.command(kind="throw")
        self.assertEqual(self.refusal(threw), ("ssp.operation_refused", "operation.execution_failed"))
        self.assertEqual(threw["error"]["message"], "registered remote operation failed")
        self.assertEqual(self.count("sync_push_results"), 0)
        self.assertEqual(self.count("sync_commits"), 0)
        self.assertEqual(self.command()["result"]["status"], "applied")

    def test_reads_see_only_rows_the_actor_may_write(self):
        self.push("k1", "c1", "p2", "41")
        # Allowed p1 only: c1 (in p2) reads as absent, so the write is an update of a p2 row,
        # refused by §3.4 and stored.
        only_p1 = self.command(allowed={"project_id": ["p1"]})["result"]
        self.assertEqual((only_p1["status"], only_p1["results"][0]["code"]), ("rejected", "sync.forbidden"))
        self.assertEqual(self.row("c1"), (1, ["c1", "p2", "41", False]))
        both = self.command(request="req-2", allowed={"project_id": ["p1", "p2"]})["result"]
        self.assertEqual(both["status"], "applied")
        self.assertEqual(self.row("c1"), (2, ["c1", "p2", "42", False]))

    def test_hook_points_are_the_push_points_with_run_between_h3_and_h4(self):
        points = []

        self.callback = lambda message: points.append(message["params"]["point"]) or {}
        self.assertEqual(self.command(hooks=True)["result"]["status"], "applied")
        self.assertEqual(points, ["after_optimistic_miss", "after_begin", "after_lock", "after_locked_recheck",
                                  "after_operations", "before_append_commit", "before_commit"])
        points.clear()
        self.assertEqual(self.command(hooks=True)["result"]["status"], "cached")
        self.assertEqual(points, [], "a replay found by the optimistic lookup passes no hook point")
        threw = self.command(request="req-2", kind="throw", hooks=True)
        self.assertEqual(threw["error"]["data"]["code"], "operation.execution_failed")
        self.assertEqual(points, ["after_optimistic_miss", "after_begin", "after_lock", "after_locked_recheck"])

    def test_the_commit_passes_the_validators_and_the_notifier_under_the_command_key(self):
        self.assertTrue(self.driver.call("hello", protocol=2, harness="t")["result"]["capabilities"]["commandCallbacks"])
        calls = []

        def answer(message):
            calls.append((message["method"], message["params"]))
            if message["method"] == "validate_commit":
                read = self.driver.call("push.read_row", call=message["params"]["call"], table="tasks", rowId="c1")
                calls.append(("read", read["result"]["row"]))
            return {}

        self.callback = answer
        every = {"rowValidators": ["tasks"], "commitValidator": True, "notify": True, "hooks": False}
        self.assertEqual(self.command(callbacks=every)["result"]["status"], "applied")
        self.assertEqual([method for method, _ in calls], ["validate_row", "validate_commit", "read", "notify"])
        self.assertEqual(calls[0][1]["rowId"], "c1")
        self.assertEqual((calls[1][1]["clientId"], calls[1][1]["clientCommitId"]),
                         ('["remote-command","user-1","app"]', '["inc","req-1"]'))
        self.assertEqual(calls[2][1]["payload"], task("c1", "p1", "1"),
                         "the validator reads the command's staged write")
        calls.clear()
        self.callback = lambda message: {"rejection": {"code": "test.refused", "message": "no", "details": None}}
        refused = self.command(request="req-2", callbacks=every)["result"]
        self.assertEqual((refused["status"], refused["results"][0]["code"]), ("rejected", "test.refused"))
        self.assertEqual(self.row("c1")[0], 1, "the refused command's write was rolled back")

    def test_a_failed_hook_abandons_the_command(self):
        self.callback = lambda message: ({"error": {"code": "ssp.callback_failed", "message": "injected"}}
                                         if message["params"]["point"] == "after_operations" else {})
        self.assertEqual(self.command(hooks=True)["error"]["code"], "ssp.callback_failed")
        self.assertEqual(self.count("sync_push_results"), 0)
        self.assertIsNone(self.row("c1"))

    def test_the_key_is_json_stringify_text(self):
        self.assertEqual(self.command(client='a"b\u00e9', actor="u\n1")["result"]["status"], "applied")
        with sqlite3.connect(self.path) as db:
            keys = db.execute("SELECT client_id, client_commit_id FROM sync_push_results").fetchall()
        self.assertEqual(keys, [('["remote-command","u\\n1","a\\"b\u00e9"]', '["inc","req-1"]')])
        self.assertEqual(json.loads(keys[0][0]), ["remote-command", "u\n1", 'a"b\u00e9'])


if __name__ == "__main__":
    unittest.main()
