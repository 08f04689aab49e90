#!/usr/bin/env python3
"""A candidate with one requirement broken, to show what a red run looks like.

    SSP_CANDIDATE='exec:python3 candidates/broken/driver.py' ssp-conformance ...
    ssp-conformance --candidate 'exec:python3 candidates/broken/driver.py' ...

It starts the Python candidate (``../python/driver.py``, next to this folder; extra arguments
are passed on to it) as a child process and relays the driver protocol (docs/driver-protocol.md)
line by line in both directions, unchanged, with one exception:

    the answer to ``segments.put`` reports a ``segmentId`` whose last hex digit is wrong.

That breaks requirement R1 of docs/requirements/segments.md (SSP2 §5.1 MUST#1: the id is the
SHA-256 content address of the bytes), a MUST, so a run under profile spec fails with exit
status 1. ``segments.get`` answers the true record, so the tests that compare a put's answer
with what a later read returns fail as well (R2's round trip), as they would against a store
with this bug. The protocol
itself is kept: every line is valid, every answer goes to the id it belongs to, callbacks
(``hook``, ``hash``, …) and the harness's answers to them pass untouched. A broken protocol
would be a driver error and exit status 2, which is not what this candidate is for.

To know which answers to alter, the relay remembers the method of every request the harness
sends (ids are direction-local: a request from the harness has ``method``; an answer from the
driver to it has ``result`` or ``error`` and the same id). Standard library only.
"""

import json
import os
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DRIVER = os.path.join(os.path.dirname(HERE), "python", "driver.py")
BROKEN_METHOD = "segments.put"


def log(text: str) -> None:
    sys.stderr.write(f"broken candidate: {text}\n")
    sys.stderr.flush()


def _id_key(value):
    """Ids are JSON strings or integers: 1 and "1" are different ids."""
    return json.dumps(value)


def break_answer(message: dict) -> bool:
    """The one change: a put's answered record names another content address, its last hex
    digit changed ("sha256:…0" becomes "sha256:…1", anything else "…0"). True when the message
    was changed."""
    result = message.get("result")
    if not isinstance(result, dict):
        return False
    record = result.get("record")
    if not isinstance(record, dict):
        return False
    segment_id = record.get("segmentId")
    if not isinstance(segment_id, str) or not segment_id:
        return False
    record["segmentId"] = segment_id[:-1] + ("1" if segment_id[-1] == "0" else "0")
    return True


def parse(line: bytes):
    try:
        message = json.loads(line)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


def main() -> int:
    child = subprocess.Popen([sys.executable, PYTHON_DRIVER, *sys.argv[1:]],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    pending = {}  # id of a harness request in flight -> its method
    lock = threading.Lock()
    out = sys.stdout.buffer

    def from_driver() -> None:
        """The candidate's lines to the harness; ends the process when the candidate ends."""
        for line in iter(child.stdout.readline, b""):
            message = parse(line)
            if message is not None and "method" not in message and \
                    ("result" in message or "error" in message):
                with lock:
                    method = pending.pop(_id_key(message.get("id")), None)
                if method == BROKEN_METHOD and break_answer(message):
                    line = (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")
            try:
                out.write(line)
                out.flush()
            except (BrokenPipeError, ValueError):
                break
        status = child.wait()
        try:
            out.flush()
        except (BrokenPipeError, ValueError):
            pass
        os._exit(status if status >= 0 else 128 - status)

    relay = threading.Thread(target=from_driver, name="from-driver", daemon=True)
    relay.start()
    try:
        for line in iter(sys.stdin.buffer.readline, b""):
            message = parse(line)
            if message is not None and isinstance(message.get("method"), str) and "id" in message:
                with lock:
                    pending[_id_key(message["id"])] = message["method"]
            child.stdin.write(line)
            child.stdin.flush()
    except BrokenPipeError:
        log("the Python candidate stopped reading its input")
    finally:
        try:
            child.stdin.close()
        except BrokenPipeError:
            pass
    relay.join()
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
