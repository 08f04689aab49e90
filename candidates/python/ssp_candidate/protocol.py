"""The driver protocol, version 1 (docs/driver-protocol.md): JSON lines over stdio.

The main thread reads lines. A request from the harness runs on a thread of its own, so
a put parked at a hook point never stops this process from serving the next request; an
answer to one of our callbacks wakes the thread waiting for it. Answers are written whole
under one lock, in whatever order they finish.
"""

import itertools
import json
import sys
import threading
import traceback

from .errors import CandidateError, Unsupported
from .scope_digest import ScopeMapError
from .wire import BadRequest


class InvalidScopeMap(CandidateError):
    code = "ssp.invalid_scope_map"


class CallbackRefused(Exception):
    """The harness answered one of our callbacks with an error."""

    def __init__(self, error):
        super().__init__(error.get("message", "") if isinstance(error, dict) else str(error))
        self.error = error


class _Pending:
    __slots__ = ("done", "answer")

    def __init__(self):
        self.done = threading.Event()
        self.answer = None


class Server:
    """Serves ``methods`` (name → function(server, params) → result dict)."""

    def __init__(self, methods, infile=None, outfile=None):
        self.methods = methods
        self._in = infile if infile is not None else sys.stdin.buffer
        self._out = outfile if outfile is not None else sys.stdout.buffer
        self._write_lock = threading.Lock()
        self._pending = {}
        self._pending_lock = threading.Lock()
        self._callback_ids = itertools.count(1)
        self._local = threading.local()
        self._workers = []
        self._closed = False
        self.handles = {}
        self._handle_ids = itertools.count(1)
        self._handle_lock = threading.Lock()

    # --- handles --------------------------------------------------------------

    def add_handle(self, value) -> int:
        with self._handle_lock:
            handle = next(self._handle_ids)
            self.handles[handle] = value
            return handle

    def take_handle(self, handle):
        with self._handle_lock:
            return self.handles.pop(handle, None)

    # --- the loop -------------------------------------------------------------

    def run(self) -> int:
        for line in self._in:
            if not line.strip():
                continue
            try:
                message = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError):
                # RecursionError: json.loads recurses per nesting level, so a
                # deeply nested line would otherwise end the driver.
                log("ignored a line that is not JSON: %r" % line[:200])
                continue
            if not isinstance(message, dict):
                log("ignored a message that is not an object")
            elif "method" in message:
                worker = threading.Thread(target=self._serve, args=(message,), daemon=True)
                # The harness may reuse this process for store after store:
                # forget the threads that are done.
                self._workers = [w for w in self._workers if w.is_alive()]
                self._workers.append(worker)
                worker.start()
            elif "result" in message or "error" in message:
                self._answer_callback(message)
            else:
                log("ignored a message that is neither request nor answer")
        self._closed = True
        with self._pending_lock:
            for pending in self._pending.values():
                pending.answer = {"error": {"code": "ssp.internal", "message": "stdin closed"}}
                pending.done.set()
        for worker in self._workers:
            worker.join()
        for value in list(self.handles.values()):
            close = getattr(value, "close", None)
            if close is not None:
                close()
        return 0

    def _serve(self, message):
        request_id = message.get("id")
        self._local.call = request_id
        try:
            method = self.methods.get(message.get("method"))
            if method is None:
                raise Unsupported("unknown method %r" % message.get("method"))
            params = message.get("params", {})
            if not isinstance(params, dict):
                raise BadRequest("params must be an object")
            self._send({"id": request_id, "result": method(self, params)})
        except ScopeMapError as error:
            self._send_error(request_id, InvalidScopeMap.code, str(error))
        except CandidateError as error:
            self._send_error(request_id, error.code, str(error), getattr(error, "data", None))
        except Exception as error:  # noqa: BLE001 — reported, never swallowed
            traceback.print_exc(file=sys.stderr)
            self._send_error(request_id, "ssp.internal", "%s: %s" % (type(error).__name__, error))

    def _send_error(self, request_id, code, message, data=None):
        error = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        self._send({"id": request_id, "error": error})

    def _send(self, message):
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
        with self._write_lock:
            self._out.write(line + b"\n")
            self._out.flush()

    # --- callbacks into the harness ---------------------------------------------

    @property
    def current_call(self):
        """The id of the harness request this thread serves (``params.call`` of callbacks)."""
        return getattr(self._local, "call", None)

    def call_harness(self, method: str, params: dict) -> dict:
        """Send a callback request and wait for its answer; raise CallbackRefused on an
        error answer. Blocks for as long as the harness takes (it parks us on purpose)."""
        callback_id = "cb%d" % next(self._callback_ids)
        pending = _Pending()
        with self._pending_lock:
            if self._closed:
                raise CallbackRefused({"code": "ssp.internal", "message": "stdin closed"})
            self._pending[callback_id] = pending
        self._send({"id": callback_id, "method": method, "params": params})
        pending.done.wait()
        with self._pending_lock:
            self._pending.pop(callback_id, None)
        answer = pending.answer
        if "error" in answer:
            raise CallbackRefused(answer["error"])
        result = answer.get("result")
        return result if isinstance(result, dict) else {}

    def _answer_callback(self, message):
        with self._pending_lock:
            pending = self._pending.get(message.get("id"))
        if pending is None:
            log("ignored an answer to unknown callback %r" % (message.get("id"),))
            return
        pending.answer = message
        pending.done.set()


def log(text: str) -> None:
    print("ssp-python-candidate: " + text, file=sys.stderr, flush=True)
