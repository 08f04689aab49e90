"""The driver itself, as the harness sees it: a child process speaking JSON lines
(docs/driver-protocol.md), callbacks included."""

import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest

from helpers import B_ID, candidate_path

DRIVER = os.path.join(candidate_path, "driver.py")
META = {"partition": "p", "logEpoch": "epoch-1", "table": "tasks", "schemaVersion": 1, "mediaType": "sqlite",
        "scopeDigest": "digest-a", "asOfCommitSeq": 42, "rowCount": 5, "rowCursor": None, "nextRowCursor": None}
NOW = 1_750_000_000_000


class Driver:
    """A minimal harness: numbered requests, callbacks answered by ``on_callback``."""

    def __init__(self, on_callback=None):
        self.process = subprocess.Popen([sys.executable, DRIVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
        self.on_callback = on_callback or (lambda message: {})
        self.next_id = 0
        self.callbacks = []

    def send(self, message):
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def read(self):
        line = self.process.stdout.readline()
        if not line:
            raise EOFError(self.process.stderr.read().decode())
        return json.loads(line)

    def call(self, method, **params):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.wait(self.next_id)

    def wait(self, request_id):
        while True:
            message = self.read()
            if "method" in message:
                self.callbacks.append(message)
                answer = self.on_callback(message)
                self.send({"id": message["id"], **({"result": answer} if "error" not in (answer or {}) else answer)})
            elif message["id"] == request_id:
                return message

    def close(self):
        self.process.stdin.close()
        status = self.process.wait(10)
        self.process.stdout.close()
        self.process.stderr.close()
        return status


class ProtocolTest(unittest.TestCase):
    def setUp(self):
        self.drivers = []

    def tearDown(self):
        for driver in self.drivers:
            if driver.process.poll() is None:
                driver.close()

    def start(self, on_callback=None):
        driver = Driver(on_callback)
        self.drivers.append(driver)
        hello = driver.call("hello", protocol=1, harness="self-test")
        self.assertEqual(hello["result"]["protocol"], 1)
        return driver

    def test_hello_declares_what_is_implemented_and_refuses_other_versions(self):
        driver = self.start()
        caps = driver.call("hello", protocol=1, harness="t")["result"]["capabilities"]
        self.assertEqual(caps["backends"], ["memory", "sqlite"])
        self.assertIn("storage", caps["areas"])
        self.assertNotIn("push", caps)  # version 1 has no push capabilities
        self.assertTrue(driver.call("hello", protocol=2, harness="t")["result"]["capabilities"]["push"])
        self.assertEqual(driver.call("hello", protocol=3, harness="t")["error"]["code"], "ssp.unsupported")
        self.assertEqual(driver.call("nope.method")["error"]["code"], "ssp.unsupported")
        self.assertEqual(driver.close(), 0)

    def test_lines_that_are_not_json_are_skipped_and_the_next_request_served(self):
        # Edge JSON (fixtures/cases/edge_json/): deep nesting made json.loads
        # raise RecursionError, which ended the driver.
        driver = self.start()
        for line in [b"[" * 100000 + b"]" * 100000, b'{"id":7,"params":{}} x', b'"\xff"', b"\xff"]:
            driver.process.stdin.write(line + b"\n")
        driver.process.stdin.flush()
        self.assertIn("result", driver.call("hello", protocol=1))
        self.assertEqual(driver.close(), 0)

    def test_put_get_find_stats_close(self):
        driver = self.start()
        store = driver.call("segments.open", location={"backend": "memory"}, options={"ttlMs": 86_400_000})
        handle = store["result"]["store"]
        put = driver.call("segments.put", store=handle, metadata=META, bytes="AQID", nowMs=NOW)["result"]["record"]
        self.assertEqual(put["segmentId"], B_ID)
        self.assertEqual(put["expiresAtMs"], NOW + 86_400_000)
        got = driver.call("segments.get", store=handle, segmentId=B_ID)["result"]["segment"]
        self.assertEqual((got["record"], got["bytes"]), (put, "AQID"))
        key = {k: META[k] for k in ("partition", "logEpoch", "table", "schemaVersion", "mediaType", "scopeDigest",
                                    "asOfCommitSeq")}
        self.assertEqual(driver.call("segments.find", store=handle, key=key, nowMs=NOW + 1)["result"]["record"], put)
        self.assertEqual(driver.call("segments.stats", store=handle)["result"]["stats"],
                         {"count": 1, "bytes": 3, "rowsSegments": 0, "sqliteSegments": 1})
        self.assertEqual(driver.call("segments.close", store=handle), {"id": 7, "result": {}})

    def test_errors_carry_the_protocol_codes(self):
        driver = self.start()
        bad_ttl = driver.call("segments.open", location={"backend": "memory"}, options={"ttlMs": 0})
        self.assertEqual(bad_ttl["error"]["code"], "ssp.invalid_argument")
        handle = driver.call("segments.open", location={"backend": "memory"}, options={})["result"]["store"]
        raw = dict(META, table={"$raw": "/w=="})
        refused = driver.call("segments.put", store=handle, metadata=raw, bytes="AQID", nowMs=NOW)["error"]
        self.assertEqual(refused["code"], "ssp.invalid_argument")
        self.assertIn('"table"', refused["message"])
        self.assertEqual(driver.call("segments.put", store=handle, bytes="AQID", nowMs=NOW)["error"]["code"],
                         "ssp.bad_request")
        self.assertEqual(driver.call("scope.digest", scopes={"k": "v"})["error"]["code"], "ssp.invalid_scope_map")

    def test_hash_callback_makes_a_collision(self):
        driver = self.start(lambda message: {"segmentId": B_ID} if message["method"] == "hash" else {})
        handle = driver.call("segments.open", location={"backend": "memory"},
                             options={"hasher": "callback"})["result"]["store"]
        driver.call("segments.put", store=handle, metadata=META, bytes="AQID", nowMs=NOW)
        error = driver.call("segments.put", store=handle, metadata=META, bytes="CQ==", nowMs=NOW)["error"]
        self.assertEqual(error["code"], "ssp.segment_collision")
        self.assertEqual(error["data"], {"segmentId": B_ID})
        self.assertIn("content-address collision", error["message"])
        self.assertEqual([c["params"]["call"] for c in driver.callbacks], [3, 4])

    def test_hooks_park_a_put_while_another_process_puts_on_the_same_file(self):
        with tempfile.TemporaryDirectory() as directory:
            location = {"backend": "sqlite", "path": os.path.join(directory, "db.sqlite")}
            parked, resume = threading.Event(), threading.Event()

            def hold_after_read(message):
                if message["params"]["point"] == "after_read":
                    parked.set()
                    resume.wait(10)
                return {}

            a = self.start(hold_after_read)
            b = self.start()
            opts = {"hooks": True, "lockWaitMs": 10_000}
            ha = a.call("segments.open", location=location, options=opts)["result"]["store"]
            hb = b.call("segments.open", location=location, options={})["result"]["store"]
            answers = {}
            thread = threading.Thread(target=lambda: answers.setdefault(
                "a", a.call("segments.put", store=ha, metadata=META, bytes="AQID", nowMs=NOW)))
            thread.start()
            self.assertTrue(parked.wait(10))
            self.assertIsNone(b.call("segments.get", store=hb, segmentId=B_ID)["result"]["segment"])
            b.next_id += 1
            b.send({"id": b.next_id, "method": "segments.put",
                    "params": {"store": hb, "metadata": dict(META, scopeDigest="digest-b"), "bytes": "AQID",
                               "nowMs": NOW + 1}})
            resume.set()
            thread.join(10)
            record = b.wait(b.next_id)["result"]["record"]
            self.assertEqual([p["scopeDigest"] for p in record["publications"]], ["digest-a", "digest-b"])
            self.assertEqual([c["params"]["point"] for c in a.callbacks],
                             ["before_begin", "after_read", "before_commit"])
            self.assertIn("record", answers["a"]["result"])

    def test_download_asks_the_resolver_once(self):
        driver = self.start(lambda message: {"allowed": {"project_id": ["*"]}})
        handle = driver.call("segments.open", location={"backend": "memory"}, options={})["result"]["store"]
        digest = "46cf18d6bb2b57ec98116335c988810ed464a447bd574695bc165da7631414f6"
        driver.call("segments.put", store=handle, metadata=dict(META, scopeDigest=digest), bytes="AQID", nowMs=NOW)
        request = {"segmentId": B_ID, "partition": "p", "logEpoch": "epoch-1", "actorId": "u1",
                   "scopesHeader": '{"project_id":["p1"]}', "ifNoneMatch": None, "nowMs": NOW + 1}
        result = driver.call("download.authorize", store=handle, served={"tasks": ["project_id"]},
                             request=request)["result"]
        self.assertEqual((result["status"], result["step"], result["bytes"], result["scopeDigest"]),
                         (200, "served", "AQID", digest))
        self.assertEqual([c["method"] for c in driver.callbacks], ["resolve_scopes"])
        self.assertEqual(driver.callbacks[0]["params"], {"call": 4, "actorId": "u1"})

    def test_a_resolver_error_answer_is_revocation(self):
        driver = self.start(lambda message: {"error": {"code": "ssp.internal", "message": "resolver threw"}})
        handle = driver.call("segments.open", location={"backend": "memory"}, options={})["result"]["store"]
        driver.call("segments.put", store=handle, metadata=META, bytes="AQID", nowMs=NOW)
        request = {"segmentId": B_ID, "partition": "p", "logEpoch": "epoch-1", "actorId": "u1",
                   "scopesHeader": '{"project_id":["p1"]}', "ifNoneMatch": None, "nowMs": NOW + 1}
        result = driver.call("download.authorize", store=handle, served={}, request=request)["result"]
        self.assertEqual((result["status"], result["error"]["code"]), (403, "sync.forbidden"))


if __name__ == "__main__":
    unittest.main()
