"""``python3 -m ssp_candidate [--find-latest-created] [--digests-reversed] [--no-hooks] [--renamed-tables]
[--no-schema-report]``: serve the
driver protocol on stdin/stdout. The flags pick other answers where SPEC allows several
(``choices.py``, README "Other permissible answers")."""

import argparse
import sys

from . import choices
from .handlers import METHODS
from .protocol import Server


def parse_choices(argv) -> choices.Choices:
    """The choices named by the command line ``argv`` (without the program name); exits
    with status 2 and a usage message on an unknown argument."""
    parser = argparse.ArgumentParser(prog="ssp_candidate", description="SSP2 segment-store candidate "
                                     "serving the driver protocol on stdin/stdout.")
    parser.add_argument("--find-latest-created", action="store_true",
                        help="find: per record the oldest match, across records the latest created "
                             "grant, then the largest id (instead of decision D5)")
    parser.add_argument("--digests-reversed", action="store_true",
                        help="scopeDigests in the reverse of decision D4's order: the others "
                             "descending by bytes, then the primary last")
    parser.add_argument("--renamed-tables", action="store_true",
                        help="keep the storage's own tables under other names and declare no "
                             "upstreamTables (renamed_tables.py)")
    parser.add_argument("--no-schema-report", action="store_true",
                        help="declare schemaReport false in hello and answer ensure_schema with {}, "
                             "as upstream's ensureSchema returns nothing")
    parser.add_argument("--no-hooks", action="store_true",
                        help="declare no hook points (hooks, pushHooks) in hello, as a "
                             "production implementation has none, and refuse a request for them")
    args = parser.parse_args(argv)
    return choices.Choices(find_latest_created=args.find_latest_created,
                           digests_reversed=args.digests_reversed, hooks=not args.no_hooks,
                           renamed_tables=args.renamed_tables,
                           schema_reports=not args.no_schema_report)


def main(argv=None) -> int:
    choices.set_current(parse_choices(sys.argv[1:] if argv is None else argv))
    return Server(METHODS).run()


if __name__ == "__main__":
    sys.exit(main())
