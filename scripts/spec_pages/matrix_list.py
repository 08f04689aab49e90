"""candidates/matrix.list: the candidates of docs/matrix.md, and where their reports are.

A line is five columns separated by ``|`` (the candidate's command has spaces of its own):

    NAME | CANDIDATE | EXPECTATIONS | PROFILE | CTEST ENTRIES

``#`` starts a comment line; blank lines are ignored. EXPECTATIONS is a path or ``-``; the
CI report directories are separated by spaces and may be left out (or ``-``). Instead of CI
report directories, ``recorded:PATH`` names a directory of the repository holding a committed
report (summary.json) of a run made where the candidate is, for a candidate CI cannot run (the
real upstream server needs a checkout of it); several such entries are merged, as CI's shards
are (a conformance run and a fault run). See the file itself.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass

from .summary import PROFILES, InputError

DEFAULT_LIST = "candidates/matrix.list"
# The repository: this file is scripts/spec_pages/matrix_list.py.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RECORDED = "recorded:"


@dataclass
class Candidate:
    name: str
    candidate: str          # as written: the --candidate value before expansion
    expectations: str | None
    profile: str
    entries: list[str]
    line: int
    # The repository directories of its committed reports, if any; none: CI's or its own run.
    recorded: list[str] | None = None


def read(path: str) -> list[Candidate]:
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8") from None
    candidates: list[Candidate] = []
    names: set[str] = set()
    for number, text in enumerate(lines, start=1):
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        where = f"{path}:{number}"
        columns = [column.strip() for column in stripped.split("|")]
        if len(columns) not in (4, 5):
            raise InputError(f"{where}: expected 4 or 5 columns separated by '|' (name, "
                             f"candidate, expectations, profile, CI reports), got "
                             f"{len(columns)}")
        name, candidate, expectations, profile = columns[:4]
        entries = columns[4].split() if len(columns) == 5 else []
        if entries == ["-"]:
            entries = []
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
            raise InputError(f"{where}: name: {name!r} is not a name (letters, digits, . _ -)")
        if name in names:
            raise InputError(f"{where}: name: {name} is listed twice")
        names.add(name)
        if candidate != "reference" and not candidate.startswith("exec:"):
            raise InputError(f"{where}: candidate: expected reference or exec:COMMAND, got "
                             f"{candidate!r}")
        if candidate.startswith("exec:"):
            try:
                if not shlex.split(candidate[len("exec:"):]):
                    raise InputError(f"{where}: candidate: exec: without a command")
            except ValueError as error:
                raise InputError(f"{where}: candidate: {error}") from None
        if not expectations:
            raise InputError(f"{where}: expectations: empty (write - for none)")
        if profile not in PROFILES:
            raise InputError(f"{where}: profile: expected spec, 0.22 or reference, got {profile!r}")
        recorded = None
        if any(entry.startswith(RECORDED) for entry in entries):
            recorded = [entry[len(RECORDED):] for entry in entries]
            if not all(entry.startswith(RECORDED) and
                       re.fullmatch(r"[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*", directory) and
                       ".." not in directory.split("/")
                       for entry, directory in zip(entries, recorded)):
                raise InputError(f"{where}: CI reports: each recorded: entry takes one directory "
                                 f"of the repository, and no CI report goes with them, got "
                                 f"{' '.join(entries)!r}")
            entries = []
        for entry in entries:
            if not re.fullmatch(r"[A-Za-z0-9._-]+", entry):
                raise InputError(f"{where}: CI reports: {entry!r} is not a directory name")
        candidates.append(Candidate(name, candidate, None if expectations == "-" else expectations,
                                    profile, entries, number, recorded))
    if not candidates:
        raise InputError(f"{path}: lists no candidate")
    return candidates


def expand_candidate(value: str, root: str, build: str) -> str:
    """The --candidate value to run: ``{build}`` becomes the build directory, and every word of
    the command that names an existing file or directory relative to the repository root
    becomes absolute, so the suite can run from any directory."""
    if not value.startswith("exec:"):
        return value
    words = []
    for word in shlex.split(value[len("exec:"):]):
        word = word.replace("{build}", build)
        if "/" in word and not os.path.isabs(word) and os.path.exists(os.path.join(root, word)):
            word = os.path.normpath(os.path.join(root, word))
        words.append(word)
    return "exec:" + shlex.join(words)


def expand_path(path: str, root: str) -> str:
    return path if os.path.isabs(path) else os.path.normpath(os.path.join(root, path))


def ctest_reports(candidate: Candidate, build: str) -> tuple[list[str] | None, list[str]]:
    """The summary.json of each of the candidate's CI report directories BUILD/reports/DIR/ (or
    of its recorded report, whatever the build), or None when the candidate has no entries or
    one is missing; second, the paths looked at."""
    if candidate.recorded:
        paths = [os.path.join(ROOT, directory, "summary.json") for directory in candidate.recorded]
    else:
        paths = [os.path.join(build, "reports", entry, "summary.json")
                 for entry in candidate.entries]
    if paths and all(os.path.isfile(path) for path in paths):
        return paths, paths
    return None, paths


def matrix_report(candidate: Candidate, build: str) -> str:
    """Where scripts/matrix writes a run of its own: BUILD/matrix/NAME/summary.json."""
    return os.path.join(build, "matrix", candidate.name, "summary.json")


def find_reports(candidate: Candidate, build: str) -> list[str]:
    """The candidate's summaries in a build directory: its CI reports when all are
    there, else the report of scripts/matrix's own run of it."""
    paths, looked = ctest_reports(candidate, build)
    if paths:
        return paths
    own = matrix_report(candidate, build)
    if os.path.isfile(own):
        return [own]
    present = [path for path in looked if os.path.isfile(path)]
    detail = ""
    if present:
        detail = f" (only {len(present)} of its {len(looked)} CI reports are there)"
    raise InputError(f"{candidate.name}: no report{detail}; looked for "
                     f"{', '.join(looked + [own])}. Run scripts/matrix, or give the build "
                     f"directory of a CI run with --reports-from")
