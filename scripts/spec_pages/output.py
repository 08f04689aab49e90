"""Writing a page (--out), checking it (--check) or printing it."""

from __future__ import annotations

import difflib
import os
import sys

DIFF_LINES = 60


def emit(text: str, out: str | None, check: str | None, regenerate: str, program: str) -> int:
    """--out FILE writes; --check FILE compares and prints a diff and the command that
    regenerates FILE when they differ (exit 1); neither prints the page. 0 otherwise."""
    if check is not None:
        try:
            with open(check, encoding="utf-8") as handle:
                current = handle.read()
        except FileNotFoundError:
            print(f"{program}: {check} does not exist; generate it with: {regenerate}",
                  file=sys.stderr)
            return 1
        except (OSError, UnicodeDecodeError) as error:
            print(f"{program}: cannot read {check}: {error}", file=sys.stderr)
            return 2
        if current == text:
            print(f"{program}: {check} is up to date")
            return 0
        diff = list(difflib.unified_diff(current.splitlines(keepends=True),
                                         text.splitlines(keepends=True),
                                         fromfile=f"{check} (committed)",
                                         tofile=f"{check} (from this run)"))
        sys.stdout.writelines(line if line.endswith("\n") else line + "\n"
                              for line in diff[:DIFF_LINES])
        if len(diff) > DIFF_LINES:
            print(f"… {len(diff) - DIFF_LINES} more lines of diff")
        print(f"{program}: {check} differs from this run; regenerate it with: {regenerate}",
              file=sys.stderr)
        return 1
    if out is not None:
        directory = os.path.dirname(out) or "."
        temporary = os.path.join(directory, f".{os.path.basename(out)}.tmp{os.getpid()}")
        try:
            with open(temporary, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
            os.replace(temporary, out)
        except OSError as error:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            print(f"{program}: cannot write {out}: {error.strerror or error}", file=sys.stderr)
            return 2
        print(f"{program}: wrote {out}")
        return 0
    sys.stdout.write(text)
    return 0
