"""The command line of scripts/spec-pages (its docstring is the usage)."""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from . import conformance_page, matrix_list, matrix_page, output
from .summary import InputError, load_run

PROGRAM = "spec-pages"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def replacements_for(paths: list[str]) -> list[tuple[str, str]]:
    """Absolute paths a reason may contain that differ between machines: the build directory
    of each report (BUILD/reports/ENTRY/summary.json, BUILD/matrix/NAME/summary.json) becomes
    ``{build}``, the repository root disappears (paths become relative to it)."""
    pairs: list[tuple[str, str]] = []
    for path in paths:
        parent = os.path.dirname(os.path.dirname(os.path.abspath(path)))
        if os.path.basename(parent) in ("reports", "matrix"):
            build = os.path.dirname(parent)
            pairs.append((build + "/", "{build}/"))
    pairs = sorted(set(pairs), key=lambda pair: -len(pair[0]))
    real_root = os.path.realpath(ROOT)
    pairs.append((ROOT + "/", ""))
    if real_root != ROOT:
        pairs.append((real_root + "/", ""))
    return pairs


def render_matrix(candidates: list[matrix_list.Candidate],
                  reports: dict[str, list[str]]) -> str:
    """docs/matrix.md from each candidate's summaries (name → paths, shards merged)."""
    columns = [(candidate, load_run(reports[candidate.name])) for candidate in candidates]
    every = [path for candidate in candidates for path in reports[candidate.name]]
    return matrix_page.render(columns, replacements_for(every))


def _add_output(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--out", metavar="FILE", help="write the page to FILE")
    group.add_argument("--check", metavar="FILE",
                       help="compare the page with FILE: exit 1 with a diff when they differ")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROGRAM, description="Pages generated from ssp-conformance reports "
        "(summary.json, written by --report-dir).")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    conformance = commands.add_parser(
        "conformance", help="docs/conformance.md from a run (of the reference)",
        description="Writes docs/conformance.md: every conformance requirement under its SSP2 "
        "sections with its tests and their results in the run. Several files are the shards "
        "of one run, or its executables' reports (ssp-conformance, ssp-faults), and are merged.")
    conformance.add_argument("summaries", nargs="+", metavar="SUMMARY.json")
    _add_output(conformance)
    matrix = commands.add_parser(
        "matrix", help="docs/matrix.md from one run per candidate of candidates/matrix.list",
        description="Writes docs/matrix.md: requirements against candidate x backend. Each "
        "candidate's reports are BUILD/reports/DIR/summary.json for its CI report directories when "
        "all are there, else BUILD/matrix/NAME/summary.json (what scripts/matrix writes).")
    matrix.add_argument("--list", default=None, metavar="FILE",
                        help="the candidates (default: candidates/matrix.list)")
    matrix.add_argument("--reports-from", default=None, metavar="BUILD_DIR",
                        help="the build directory holding the reports (default: build/default)")
    matrix.add_argument("--summary", action="append", default=[], metavar="NAME=FILE[,FILE...]",
                        help="take candidate NAME's results from these files instead")
    _add_output(matrix)
    return parser


def _regenerate(argv: list[str], check: str) -> str:
    words = ["scripts/spec-pages"]
    skip = False
    for index, word in enumerate(argv):
        if skip:
            skip = False
            continue
        if word == "--check":
            words += ["--out", check]
            skip = True
        elif word.startswith("--check="):
            words += ["--out", check]
        else:
            words.append(word)
    return shlex.join(words)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    arguments = _parser().parse_args(argv)
    try:
        if arguments.command == "conformance":
            run = load_run(arguments.summaries)
            text = conformance_page.render(run, replacements_for(arguments.summaries))
        else:
            list_path = arguments.list or os.path.join(ROOT, matrix_list.DEFAULT_LIST)
            build = arguments.reports_from or os.path.join(ROOT, "build", "default")
            candidates = matrix_list.read(list_path)
            names = {candidate.name for candidate in candidates}
            given: dict[str, list[str]] = {}
            for value in arguments.summary:
                name, equals, files = value.partition("=")
                if not equals or not files:
                    raise InputError(f"--summary {value}: expected NAME=FILE[,FILE...]")
                if name not in names:
                    raise InputError(f"--summary {value}: {list_path} lists no candidate {name}")
                given[name] = files.split(",")
            reports = {candidate.name: given.get(candidate.name)
                       or matrix_list.find_reports(candidate, build) for candidate in candidates}
            text = render_matrix(candidates, reports)
    except InputError as error:
        print(f"{PROGRAM}: {error}", file=sys.stderr)
        return 2
    regenerate = _regenerate(argv, arguments.check) if arguments.check else ""
    return output.emit(text, arguments.out, arguments.check, regenerate, PROGRAM)
