"""Pages generated from the suite's reports (``ssp-conformance --report-dir DIR``).

``scripts/spec-pages`` is the command line (``cli.py``); ``scripts/matrix`` runs the
candidates of ``candidates/matrix.list`` and renders ``docs/matrix.md`` with it.

- ``summary``: reads and checks ``summary.json`` files and merges the shards of one run (and the runs of its several executables);
- ``markdown``: section order, anchors and the escaping both pages share;
- ``conformance_page``: ``docs/conformance.md``, the catalog with the reference's results;
- ``matrix_list``: reads ``candidates/matrix.list`` and finds each candidate's reports;
- ``matrix_page``: ``docs/matrix.md``, requirements against candidate × backend;
- ``output``: ``--out`` / ``--check`` / stdout.

Standard library only (Python 3.11).
"""
