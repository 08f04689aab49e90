"""Push results (SSP2 §6.3): the per-operation records, the stored outcome as upstream keeps it
in ``sync_push_results.result`` (design notes storage.md §4.2, push.md §1.2), and the shapes
of docs/driver-protocol.md ("Result record", "Stored result").

In memory a record is a dict with the wire's field names; ``serverRow`` is base64 text and
``details`` JSON text (or None), the form both the wire and the stored JSON use, so a replay
answers exactly what the first delivery answered.
"""

import base64
import binascii
import json

from .jsontext import MAX_SAFE_INTEGER
from .storage_errors import IdempotencyCacheMiss


def applied_record(op_index):
    return {"opIndex": op_index, "status": "applied"}


def error_record(op_index, code, message, retryable=False, details=None):
    return {"opIndex": op_index, "status": "error", "code": code, "message": message, "retryable": retryable,
            "details": details}


def conflict_record(op_index, server_version, server_row: bytes):
    return {"opIndex": op_index, "status": "conflict", "code": "sync.version_conflict",
            "message": "row version does not match baseVersion (§6.2)", "serverVersion": server_version,
            "serverRow": base64.b64encode(server_row).decode("ascii")}


def normalized_details(text):
    """Validator details as compact JSON text (§6.3.1 lets the server normalize them), so the
    first answer and every replay carry the same bytes. None stays None."""
    if text is None:
        return None
    return json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))


def _dump(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def stored_text(result) -> str:
    """The JSON text stored for ``result``: {status, commitSeq?, recordedAtMs?, cacheIdentity?,
    results}, optional fields only when set; details embedded as JSON."""
    parts = ['"status":' + _dump(result["status"])]
    for key in ("commitSeq", "recordedAtMs", "cacheIdentity"):
        if result.get(key) is not None:
            parts.append('"%s":%s' % (key, _dump(result[key])))
    records = []
    for record in result["results"]:
        fields = ['"opIndex":%d' % record["opIndex"], '"status":' + _dump(record["status"])]
        if record["status"] == "conflict":
            fields += ['"code":' + _dump(record["code"]), '"message":' + _dump(record["message"]),
                       '"serverVersion":%d' % record["serverVersion"], '"serverRow":' + _dump(record["serverRow"])]
        elif record["status"] == "error":
            fields += ['"code":' + _dump(record["code"]), '"message":' + _dump(record["message"]),
                       '"retryable":' + ("true" if record["retryable"] else "false")]
            if record.get("details") is not None:
                fields.append('"details":' + normalized_details(record["details"]))
        records.append("{" + ",".join(fields) + "}")
    parts.append('"results":[' + ",".join(records) + "]")
    return "{" + ",".join(parts) + "}"


def _int(value, minimum=None):
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_SAFE_INTEGER:
        raise ValueError("not a safe integer")
    if minimum is not None and value < minimum:
        raise ValueError("below %d" % minimum)
    return value


def _str(value):
    if not isinstance(value, str):
        raise ValueError("not a string")
    return value


def _refuse_constant(name):
    raise ValueError("%s is not JSON" % name)


def parse_stored(text):
    """The stored result of ``text``; IdempotencyCacheMiss when it cannot be read back whole."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        value = json.loads(text, parse_constant=_refuse_constant)
        if not isinstance(value, dict):
            raise ValueError("not an object")
        status = value.get("status")
        if status not in ("applied", "rejected"):
            raise ValueError("unknown status")
        result = {"status": status, "commitSeq": None, "recordedAtMs": None, "cacheIdentity": None}
        if value.get("commitSeq") is not None:
            result["commitSeq"] = _int(value["commitSeq"], 1)
        elif status == "applied":
            raise ValueError("applied without commitSeq")
        if value.get("recordedAtMs") is not None:
            result["recordedAtMs"] = _int(value["recordedAtMs"])
        if value.get("cacheIdentity") is not None:
            result["cacheIdentity"] = _str(value["cacheIdentity"])
        records = value.get("results")
        if not isinstance(records, list):
            raise ValueError("results is not an array")
        result["results"] = [_record(record) for record in records]
        return result
    except (ValueError, TypeError, UnicodeDecodeError, RecursionError):
        raise IdempotencyCacheMiss() from None


def _record(record):
    if not isinstance(record, dict):
        raise ValueError("record is not an object")
    op_index = _int(record.get("opIndex"), 0)
    status = record.get("status")
    if status == "applied":
        return applied_record(op_index)
    if status == "conflict":
        row = _str(record.get("serverRow"))
        try:
            base64.b64decode(row.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError):
            raise ValueError("serverRow is not base64") from None
        return {"opIndex": op_index, "status": "conflict", "code": _str(record.get("code")),
                "message": _str(record.get("message")), "serverVersion": _int(record.get("serverVersion")),
                "serverRow": row}
    if status == "error":
        retryable = record.get("retryable")
        if not isinstance(retryable, bool):
            raise ValueError("retryable is not a boolean")
        details = record.get("details")
        return error_record(op_index, _str(record.get("code")), _str(record.get("message")), retryable,
                            None if details is None else _dump(details))
    raise ValueError("unknown record status")


def record_to_wire(record):
    return dict(record)


def result_to_wire(result):
    return {"status": result["status"], "commitSeq": result.get("commitSeq"),
            "recordedAtMs": result.get("recordedAtMs"), "cacheIdentity": result.get("cacheIdentity"),
            "results": [record_to_wire(r) for r in result["results"]]}


def record_from_wire(record):
    """A result record sent by the harness (tx.put_push_result); BadRequest-free: the caller
    validates through parse_stored of its stored text."""
    status = record.get("status")
    if status == "applied":
        return applied_record(record["opIndex"])
    if status == "conflict":
        return {"opIndex": record["opIndex"], "status": "conflict", "code": record["code"],
                "message": record["message"], "serverVersion": record["serverVersion"],
                "serverRow": record["serverRow"]}
    return error_record(record["opIndex"], record["code"], record["message"], bool(record.get("retryable", False)),
                        record.get("details"))


def result_from_wire(value):
    return {"status": value["status"], "commitSeq": value.get("commitSeq"), "recordedAtMs": value.get("recordedAtMs"),
            "cacheIdentity": value.get("cacheIdentity"), "results": [record_from_wire(r) for r in value["results"]]}
