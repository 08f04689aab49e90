"""The authoritative query over the driver protocol version 2 (docs/driver-protocol.md
"storage.query_authoritative", capability ``queryAuthoritative``): committed rows by id and
the partition's max commit seq from one snapshot, answered at once while a push or a raw
transaction is open, never with their staged rows. The driver as a child process."""

import base64
import os
import tempfile
import threading
import unittest

from helpers import candidate_path  # noqa: F401  (puts the package on sys.path)
from test_protocol import Driver
from test_push_protocol import ALL, SCHEMA, TASK, task, upsert

from ssp_candidate.row_codec import decode_row

# A query that waits for the push it is asked from would wedge the test (the push waits for
# the validator, the validator for the query): the driver is killed after this many seconds,
# so the test fails instead of hanging.
WATCHDOG_S = 20


def title(row):
    return decode_row(TASK, base64.b64decode(row["payload"]))[2]


class QueryAuthoritativeProtocolTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "server.sqlite")
        self.callback = lambda message: {}
        self.driver = Driver(lambda message: self.callback(message))
        self.watchdog = threading.Timer(WATCHDOG_S, self.driver.process.kill)
        self.watchdog.start()
        hello = self.driver.call("hello", protocol=2, harness="t")["result"]
        self.assertTrue(hello["capabilities"]["queryAuthoritative"])
        opened = self.driver.call("storage.open", location={"backend": "sqlite", "path": self.path},
                                  options={"compatibility": "0.22", "lockWaitMs": 2000, "hooks": False})
        self.storage = opened["result"]["storage"]
        self.driver.call("storage.ensure_schema", storage=self.storage, schema=SCHEMA)
        self.keys = 0

    def tearDown(self):
        self.watchdog.cancel()
        if self.driver.process.poll() is None:
            self.driver.call("storage.close", storage=self.storage)
            self.driver.close()
        self.dir.cleanup()

    def push(self, operations, commit_validator=False):
        self.keys += 1
        answer = self.driver.call("push.run", storage=self.storage, schema=SCHEMA,
                                  actor={"partition": "acme", "actorId": "user-1", "allowedScopes": ALL},
                                  commit={"clientId": "client-1", "clientCommitId": "k%d" % self.keys,
                                          "operations": operations},
                                  nowMs=1000 + self.keys, maxOperationsPerRequest=500,
                                  cacheIdentity="identity-%d" % self.keys,
                                  callbacks={"rowValidators": [], "commitValidator": commit_validator,
                                             "notify": False, "hooks": False})
        return answer["result"]

    def query(self, row_ids, table="tasks", partition="acme"):
        return self.driver.call("storage.query_authoritative", storage=self.storage, partition=partition,
                                table=table, rowIds=row_ids)

    def query_inside(self, request_id, row_ids):
        """The query sent while the driver waits for a callback's answer (its own request id)."""
        self.driver.send({"id": request_id, "method": "storage.query_authoritative",
                          "params": {"storage": self.storage, "partition": "acme", "table": "tasks",
                                     "rowIds": row_ids}})
        return self.driver.wait(request_id)

    def seed(self):
        self.assertEqual(self.push([upsert("tasks", "r1", task("r1", "p1", "old")),
                                    upsert("tasks", "r2", task("r2", "p1", "two"))])["commitSeq"], 1)

    def test_hello_version_one_does_not_declare_it(self):
        driver = Driver()
        try:
            hello = driver.call("hello", protocol=1, harness="t")["result"]
            self.assertNotIn("queryAuthoritative", hello["capabilities"])
        finally:
            driver.close()

    def test_rows_in_the_order_asked_absent_left_out_and_the_max_commit_seq(self):
        self.assertEqual(self.query(["r1"])["result"], {"rows": [], "maxCommitSeq": 0})
        self.seed()
        read = self.query(["r2", "missing", "r1"])["result"]
        self.assertEqual([row["rowId"] for row in read["rows"]], ["r2", "r1"])
        self.assertEqual(read["maxCommitSeq"], 1)
        # The stored-row shape of storage.get_row.
        got = self.driver.call("storage.get_row", storage=self.storage, partition="acme", table="tasks",
                               rowId="r2")["result"]["row"]
        self.assertEqual(read["rows"][0], got)
        self.assertEqual(read["rows"][1]["scopes"], {"project_id": "p1"})
        self.assertEqual(title(read["rows"][1]), "old")
        self.assertEqual(self.query([])["result"], {"rows": [], "maxCommitSeq": 1})
        # Another partition: none of acme's rows, its own seq.
        self.assertEqual(self.query(["r1", "r2"], partition="other")["result"], {"rows": [], "maxCommitSeq": 0})

    def test_refusals(self):
        unknown = self.query(["r1"], table="nope")["error"]
        self.assertEqual(unknown["code"], "ssp.unknown_table")
        self.assertEqual(unknown, self.driver.call("storage.get_row", storage=self.storage, partition="acme",
                                                   table="nope", rowId="r1")["error"])
        bad = self.query(["r1", 7])["error"]
        self.assertEqual(bad["code"], "ssp.bad_request")
        self.assertIn("rowIds[1]", bad["message"])

    def test_from_inside_a_commit_validator_the_committed_state_at_once(self):
        self.seed()
        inside = []

        def callback(message):
            if message["method"] == "validate_commit":
                inside.append(self.query_inside(900, ["r1", "r3"]))
            return {}

        self.callback = callback
        applied = self.push([upsert("tasks", "r3", task("r3", "p1", "staged")),
                             upsert("tasks", "r1", task("r1", "p1", "new"), 1)], commit_validator=True)
        self.assertEqual(applied["status"], "applied")
        self.assertEqual(len(inside), 1)
        read = inside[0]["result"]
        self.assertEqual([(row["rowId"], row["serverVersion"], title(row)) for row in read["rows"]],
                         [("r1", 1, "old")], "the query saw the push's staged rows")
        self.assertEqual(read["maxCommitSeq"], 1)
        after = self.query(["r1", "r3"])["result"]
        self.assertEqual([(row["rowId"], row["serverVersion"], title(row)) for row in after["rows"]],
                         [("r1", 2, "new"), ("r3", 1, "staged")])
        self.assertEqual(after["maxCommitSeq"], 2)

    def test_an_open_raw_transaction_neither_blocks_it_nor_shows_its_staged_writes(self):
        self.seed()
        tx = self.driver.call("storage.begin", storage=self.storage, partition="acme")["result"]["transaction"]
        self.driver.call("tx.lock_partition_for_push", transaction=tx)
        row = {"rowId": "r9", "serverVersion": 1, "scopes": {"project_id": "p1"}, "payload": task("r9", "p1")}
        self.assertEqual(self.driver.call("tx.upsert_row", transaction=tx, table="tasks", row=row, opIndex=0)["result"],
                         {})
        self.driver.call("tx.delete_row", transaction=tx, table="tasks", rowId="r2")
        entry = {"clientId": "c", "clientCommitId": "raw", "actorId": "a", "createdAtMs": 5, "changes": []}
        self.assertEqual(self.driver.call("tx.append_commit", transaction=tx, entry=entry)["result"], {"commitSeq": 2})
        read = self.query(["r9", "r2", "r1"])["result"]
        self.assertEqual([row["rowId"] for row in read["rows"]], ["r2", "r1"])
        self.assertEqual(read["maxCommitSeq"], 1)
        self.driver.call("tx.commit", transaction=tx)
        self.driver.call("tx.close", transaction=tx)
        read = self.query(["r9", "r2", "r1"])["result"]
        self.assertEqual([row["rowId"] for row in read["rows"]], ["r9", "r1"])
        self.assertEqual(read["maxCommitSeq"], 2)


if __name__ == "__main__":
    unittest.main()
