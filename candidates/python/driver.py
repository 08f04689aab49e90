#!/usr/bin/env python3
"""Entry point for the harness: SSP_CANDIDATE='exec:python3 /path/to/candidates/python/driver.py'.

Runs the ``ssp_candidate`` package next to this file whatever the working directory."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ssp_candidate.__main__ import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
