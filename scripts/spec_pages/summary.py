"""Reading ``summary.json`` (written by ``ssp-conformance --report-dir DIR``) and merging shards.

The schema is documented in docs/harness.md#reports. Every field the pages use is checked here,
so a malformed file stops with a message naming the file and the field (``InputError``) and
never with a traceback. Unknown fields are ignored: a later version may add some.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

FORMAT = "ssp-conformance-summary"
VERSION = 1

OUTCOMES = ("passed", "failed", "expected-fail", "unexpected-pass", "skipped", "error")
BACKENDS = ("memory", "sqlite", "postgres")
PROFILES = ("spec", "0.22", "reference")
NO_SECTION = "(no section)"  # where a requirement whose section cell is empty is listed
COUNT_FIELDS = ("passed", "failed", "failedNotCounted", "expectedFail", "unexpectedPass",
                "skipped", "error")


class InputError(Exception):
    """Input the pages cannot use: the message names the file and the field."""


@dataclass
class Run:
    """One run of the suite, possibly read from several shards and executables."""

    files: list[str]
    candidate: str
    executable: str
    profile: str
    exit_status: int
    totals: dict[str, int]
    tests: list[dict] = field(default_factory=list)
    outside_tests: list[dict] = field(default_factory=list)
    requirements: list[dict] = field(default_factory=list)


# --- checking -----------------------------------------------------------------------------

class _Checker:
    def __init__(self, path: str):
        self.path = path

    def fail(self, where: str, what: str) -> InputError:
        return InputError(f"{self.path}: {where}: {what}")

    def require(self, obj: dict, key: str, where: str):
        if not isinstance(obj, dict):
            raise self.fail(where or "(top level)", "expected a JSON object")
        if key not in obj:
            raise self.fail(_join(where, key), "missing")
        return obj[key]

    def string(self, obj: dict, key: str, where: str, *, nullable: bool = False,
               choices: tuple[str, ...] | None = None) -> str | None:
        value = self.require(obj, key, where)
        if value is None and nullable:
            return None
        if not isinstance(value, str):
            kind = "a string or null" if nullable else "a string"
            raise self.fail(_join(where, key), f"expected {kind}, got {_show(value)}")
        if choices is not None and value not in choices:
            also = " or null" if nullable else ""
            raise self.fail(_join(where, key),
                            f"expected one of {', '.join(choices)}{also}, got {_show(value)}")
        return value

    def integer(self, obj: dict, key: str, where: str, *, minimum: int | None = 0) -> int:
        value = self.require(obj, key, where)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(_join(where, key), f"expected an integer, got {_show(value)}")
        if minimum is not None and value < minimum:
            raise self.fail(_join(where, key), f"expected at least {minimum}, got {value}")
        return value

    def number(self, obj: dict, key: str, where: str) -> float:
        value = self.require(obj, key, where)
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise self.fail(_join(where, key), f"expected a number, got {_show(value)}")
        return value

    def boolean(self, obj: dict, key: str, where: str) -> bool:
        value = self.require(obj, key, where)
        if not isinstance(value, bool):
            raise self.fail(_join(where, key), f"expected true or false, got {_show(value)}")
        return value

    def array(self, obj: dict, key: str, where: str) -> list:
        value = self.require(obj, key, where)
        if not isinstance(value, list):
            raise self.fail(_join(where, key), f"expected an array, got {_show(value)}")
        return value

    def strings(self, obj: dict, key: str, where: str, *, non_empty: bool = False) -> list[str]:
        values = self.array(obj, key, where)
        for index, value in enumerate(values):
            if not isinstance(value, str):
                raise self.fail(f"{_join(where, key)}[{index}]",
                                f"expected a string, got {_show(value)}")
        if non_empty and not values:
            raise self.fail(_join(where, key), "expected at least one entry")
        return values

    def obj(self, value, where: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected a JSON object, got {_show(value)}")
        return value

    def counts(self, obj: dict, where: str) -> dict[str, int]:
        return {name: self.integer(obj, name, where) for name in COUNT_FIELDS}


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _show(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def load(path: str) -> Run:
    """Reads and checks one summary.json."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
    try:
        document = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 (byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise InputError(f"{path}: not JSON: {error.msg} at line {error.lineno} "
                         f"column {error.colno}") from None
    check = _Checker(path)
    check.obj(document, "(top level)")
    fmt = check.require(document, "format", "")
    if fmt != FORMAT:
        raise check.fail("format", f"expected {json.dumps(FORMAT)}, got {_show(fmt)}")
    version = check.require(document, "version", "")
    if version != VERSION:
        raise check.fail("version", f"expected {VERSION} (the version these pages read), "
                                    f"got {_show(version)}")
    run = Run(
        files=[path],
        candidate=check.string(document, "candidate", ""),
        executable=check.string(document, "executable", ""),
        profile=check.string(document, "profile", "", choices=PROFILES),
        exit_status=check.integer(document, "exitStatus", ""),
        totals=check.counts(check.obj(check.require(document, "totals", ""), "totals"),
                            "totals"),
    )
    for index, row in enumerate(check.array(document, "counts", "")):
        where = f"counts[{index}]"
        check.obj(row, where)
        check.string(row, "section", where)
        check.string(row, "backend", where, nullable=True, choices=BACKENDS)
        check.string(row, "level", where)
        check.counts(row, where)
    for index, test in enumerate(check.array(document, "tests", "")):
        run.tests.append(_test(check, test, f"tests[{index}]"))
    for index, outside in enumerate(check.array(document, "outsideTests", "")):
        where = f"outsideTests[{index}]"
        check.obj(outside, where)
        run.outside_tests.append({"where": check.string(outside, "where", where),
                                  "reason": check.string(outside, "reason", where)})
    seen: dict[tuple[str, str], str] = {}
    for index, requirement in enumerate(check.array(document, "requirements", "")):
        where = f"requirements[{index}]"
        row = _requirement(check, requirement, where)
        key = (row["file"], row["id"])
        if key in seen:
            raise check.fail(f"{where}.id", f"{row['id']} of {row['file']} is listed twice "
                                            f"(first at {seen[key]})")
        seen[key] = where
        run.requirements.append(row)
    return run


def _test(check: _Checker, test, where: str) -> dict:
    check.obj(test, where)
    missing = check.string(test, "missingCapability", where, nullable=True) \
        if "missingCapability" in test else None
    return {
        "name": check.string(test, "name", where),
        "test": check.string(test, "test", where),
        "requirement": check.string(test, "requirement", where, nullable=True),
        "sections": check.strings(test, "sections", where),
        "level": check.string(test, "level", where),
        "backend": check.string(test, "backend", where, nullable=True, choices=BACKENDS),
        "outcome": check.string(test, "outcome", where, choices=OUTCOMES),
        "counts": check.boolean(test, "counts", where),
        "reason": check.string(test, "reason", where),
        "seconds": check.number(test, "seconds", where),
        "missingCapability": missing,
        "harnessError": test.get("harnessError") is True,
    }


def _requirement(check: _Checker, requirement, where: str) -> dict:
    check.obj(requirement, where)
    return {
        "id": check.string(requirement, "id", where),
        "file": check.string(requirement, "file", where),
        "sections": check.strings(requirement, "sections", where) or [NO_SECTION],
        "level": check.string(requirement, "level", where, nullable=True),
        "levelCell": check.string(requirement, "levelCell", where),
        "kind": check.string(requirement, "kind", where),
        "text": check.string(requirement, "text", where),
        "tests": check.strings(requirement, "tests", where),
    }


# --- merging ------------------------------------------------------------------------------

def load_run(paths: list[str]) -> Run:
    """Reads the summaries of one run (its shards, and the runs of the suite's other
    executables against the same candidate: ssp-conformance and ssp-faults) and merges them:
    tests and failures outside tests are concatenated in the order given, requirements united,
    totals added; the exit status is the worst. A test another executable also ran (the catalog
    checks every executable compiles) is kept once, as the first file has it. They must agree
    on the candidate and the profile; the executables are named together."""
    if not paths:
        raise InputError("no summary.json given")
    runs = [load(path) for path in paths]
    merged = runs[0]
    known = {(row["file"], row["id"]) for row in merged.requirements}
    for other in runs[1:]:
        for attribute, label in (("candidate", "candidate"), ("profile", "profile")):
            if getattr(other, attribute) != getattr(merged, attribute):
                raise InputError(
                    f"{other.files[0]}: {label}: {_show(getattr(other, attribute))} differs from "
                    f"{_show(getattr(merged, attribute))} in {merged.files[0]}; only the reports of "
                    f"one run can be merged")
        merged.files.extend(other.files)
        merged.exit_status = worst_exit_status(merged.exit_status, other.exit_status)
        merged.totals = {name: merged.totals[name] + other.totals[name] for name in COUNT_FIELDS}
        if other.executable not in merged.executable.split(" and "):
            merged.executable += " and " + other.executable
            seen = {test["name"] for test in merged.tests}
            merged.tests.extend(test for test in other.tests if test["name"] not in seen)
        else:
            merged.tests.extend(other.tests)
        merged.outside_tests.extend(other.outside_tests)
        for row in other.requirements:
            key = (row["file"], row["id"])
            if key not in known:
                known.add(key)
                merged.requirements.append(row)
    return merged


def worst_exit_status(a: int, b: int) -> int:
    """2 (an error) over 1 (a failure) over 0; any other status is worse than all three."""
    def rank(status: int) -> int:
        return {0: 0, 1: 1, 2: 2}.get(status, 3)
    return a if rank(a) >= rank(b) else b


def candidate_name(candidate: str) -> str:
    """The name the candidate gave, without the command line the harness appends to it
    (``"ssp-python-candidate 0.3 (exec: python3 /abs/driver.py)"``): the command's absolute
    paths differ between machines and builds, and the pages must not."""
    marker = " (exec:"
    at = candidate.find(marker)
    if at >= 0 and candidate.endswith(")"):
        return candidate[:at]
    return candidate
